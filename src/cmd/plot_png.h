/* plot_png.h — charts as PNG through a converter found at run time (plot_png.c). */
#ifndef PLUMB_PLOT_PNG_H
#define PLUMB_PLOT_PNG_H

enum { PNG_NONE, PNG_RSVG, PNG_CHROME };
/* The converter to use: PNG_RSVG (rsvg-convert) or PNG_CHROME (chromium, chromium-browser or
 * google-chrome), its path in *path (free it); PNG_NONE when none is on PATH. */
int png_converter(char **path);
/* Draw svg (the text of the file at svg_path) into png_path; 0 on success, -1 when the
 * converter failed (nothing left at png_path). */
int png_write(int kind, const char *conv, const char *svg_path, const char *svg,
	      const char *png_path);

#endif
