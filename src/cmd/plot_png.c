/*
 * plot_png.c — `plumb plot --png`: each chart also as a PNG, drawn by a converter found at run
 * time (plumb draws no pixels itself): rsvg-convert (librsvg) when it is on PATH, else a
 * headless Chromium's screenshot of the .svg at the chart's own size. The converter runs with
 * an argument vector (no shell), its output discarded; each PNG is written to a temporary name
 * and renamed into place, so a failure or a stop leaves no half-drawn file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/plot_png.h"
#include "core/cleanup.h"
#include "core/util.h"

/* name's full path on PATH, or NULL. */
static char *on_path(const char *name)
{
	const char *p = getenv("PATH");
	if (!p || !*p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		size_t n = strcspn(p, ":");
		char *full = xasprintf("%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
		if (access(full, X_OK) == 0)
			return full;
		free(full);
		p += n + (p[n] == ':');
	}
	return NULL;
}

int png_converter(char **path)
{
	static const char *const chromes[] = { "chromium", "chromium-browser", "google-chrome",
					       NULL };
	if ((*path = on_path("rsvg-convert")))
		return PNG_RSVG;
	for (int i = 0; chromes[i]; i++)
		if ((*path = on_path(chromes[i])))
			return PNG_CHROME;
	return PNG_NONE;
}

/* The chart's size from its <svg ... width="W" height="H">. */
static void svg_size(const char *svg, int *w, int *h)
{
	const char *a = strstr(svg, " width=\""), *b = strstr(svg, " height=\"");
	*w = a ? atoi(a + 8) : 0;
	*h = b ? atoi(b + 9) : 0;
	if (*w <= 0 || *w > 10000)
		*w = 1000;
	if (*h <= 0 || *h > 20000)
		*h = 800;
}

/* Run argv with stdout and stderr to /dev/null; 0 when it exited 0 within two minutes. */
static int run_quiet(char *const *argv)
{
	pid_t pid = plumb_fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	int st = child_wait_bounded(pid, 120000);
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int png_write(int kind, const char *conv, const char *svg_path, const char *svg,
	      const char *png_path)
{
	char *tmp = xasprintf("%s.tmp%ld.png", png_path, (long)getpid());
	path_register(tmp, 0);
	int rc;
	if (kind == PNG_RSVG) {
		char *argv[] = { (char *)conv, "-o", tmp, (char *)svg_path, NULL };
		rc = run_quiet(argv);
	} else {
		int w, h;
		svg_size(svg, &w, &h);
		char *prof = private_dir(NULL), *abs = realpath(svg_path, NULL);
		char *shot = xasprintf("--screenshot=%s", tmp), *size = xasprintf("--window-size=%d,%d", w, h);
		char *data = xasprintf("--user-data-dir=%s", prof ? prof : "/nonexistent");
		char *url = xasprintf("file://%s", abs ? abs : svg_path);
		/* as root Chromium runs only without its sandbox */
		char *argv[] = { (char *)conv, "--headless", "--disable-gpu", "--no-first-run",
				 "--disable-background-networking", "--disable-component-update",
				 "--disable-sync", "--hide-scrollbars", data, shot, size, url,
				 geteuid() == 0 ? "--no-sandbox" : NULL, NULL };
		rc = prof ? run_quiet(argv) : -1;
		if (prof) {
			remove_tree(prof);
			path_forget(prof);
		}
		free(prof);
		free(abs);
		free(shot);
		free(size);
		free(data);
		free(url);
	}
	struct stat sb;
	if (rc == 0 && stat(tmp, &sb) == 0 && sb.st_size > 0 && rename(tmp, png_path) == 0) {
		path_forget(tmp);
		free(tmp);
		return 0;
	}
	unlink(tmp);
	path_forget(tmp);
	free(tmp);
	return -1;
}
