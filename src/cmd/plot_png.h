/* plot_png.h — charts as PNG through rsvg-convert, found at run time (plot_png.c). */
#ifndef PLUMB_PLOT_PNG_H
#define PLUMB_PLOT_PNG_H

/* rsvg-convert's path on PATH (free it), or NULL. */
char *png_converter(void);
/* Draw the SVG file svg_path into png_path; 0 on success, -1 when the converter failed
 * (nothing left at png_path). */
int png_write(const char *conv, const char *svg_path, const char *png_path);

#endif
