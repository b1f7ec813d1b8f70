/*
 * plot_png.c — `plumb plot --png`: each chart also as a PNG, drawn by rsvg-convert (librsvg),
 * found on PATH when plot runs (plumb draws no pixels itself). The converter runs with an
 * argument vector (no shell), its output discarded; each PNG is written to a temporary name
 * and renamed into place, so a failure or a stop leaves no half-drawn file. A browser is not
 * used: its helper processes leave its process group, and a stop could not end them all.
 */
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

char *png_converter(void)
{
	const char *p = getenv("PATH");
	if (!p || !*p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		size_t n = strcspn(p, ":");
		char *full = xasprintf("%.*s/rsvg-convert", (int)(n ? n : 1), n ? p : ".");
		if (access(full, X_OK) == 0)
			return full;
		free(full);
		p += n + (p[n] == ':');
	}
	return NULL;
}

int png_write(const char *conv, const char *svg_path, const char *png_path)
{
	char *tmp = xasprintf("%s.tmp%ld.png", png_path, (long)getpid());
	path_register(tmp, 0);
	int ok = 0;
	pid_t pid = plumb_fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		char *argv[] = { (char *)conv, "-o", tmp, (char *)svg_path, NULL };
		execv(conv, argv);
		_exit(127);
	}
	if (pid > 0) {
		int st = child_wait_bounded(pid, 120000);
		struct stat sb;
		ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && stat(tmp, &sb) == 0 &&
		     sb.st_size > 0 && rename(tmp, png_path) == 0;
	}
	if (!ok)
		unlink(tmp);
	path_forget(tmp);
	free(tmp);
	return ok ? 0 : -1;
}
