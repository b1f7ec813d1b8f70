/* on_bundle.c — which board bundle (`make bundle`: plumb-VERSION-TRIPLE.tar.gz) `plumb on` copies
 * to a target, chosen by the target's `uname -m` (see on.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "buildinfo.h"
#include "cmd/on.h"
#include "core/cleanup.h"
#include "core/util.h"

/* One name per instruction set, from `uname -m` or a triple's first word: an armv7l board
 * runs an arm-linux-gnueabihf bundle, an arm64 one an aarch64 bundle. */
const char *arch_family(const char *m, char *buf, size_t len)
{
	static const struct { const char *prefix, *family; } map[] = {
		{ "x86_64", "x86_64" }, { "amd64", "x86_64" }, { "aarch64", "aarch64" },
		{ "arm64", "aarch64" }, { "arm", "arm" }, { "i386", "i386" }, { "i486", "i386" },
		{ "i586", "i386" }, { "i686", "i386" }, { "ppc64le", "powerpc64le" },
		{ "powerpc64le", "powerpc64le" }, { "riscv64", "riscv64" }, { "s390x", "s390x" },
	};
	size_t n = strcspn(m, "-\n\r ");
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strncmp(m, map[i].prefix, strlen(map[i].prefix)))
			return map[i].family;
	snprintf(buf, len, "%.*s", (int)(n < 64 ? n : 64), m);
	return buf;
}

/* The cross compiler to name for a family (Debian's gcc-TRIPLE packages). */
static const char *cross_cc(const char *family, char *buf, size_t len)
{
	if (!strcmp(family, "arm"))
		return "arm-linux-gnueabihf-gcc";
	if (!strcmp(family, "i386"))
		return "i686-linux-gnu-gcc";
	snprintf(buf, len, "%s-linux-gnu-gcc", family);
	return buf;
}

/* The family a bundle's name says (plumb-VERSION-TRIPLE.tar.gz), or NULL when it says none. */
const char *bundle_family(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t pl = strlen("plumb-" PLUMB_VERSION "-");
	if (strncmp(base, "plumb-" PLUMB_VERSION "-", pl) || strlen(base) <= pl + 7 ||
	    strcmp(base + strlen(base) - 7, ".tar.gz"))
		return NULL;
	return arch_family(base + pl, buf, len);
}

/* This binary's source tree (bin/plumb's parent holding a Makefile and VERSION), or NULL. */
static char *own_tree(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	for (int up = 0; up < 2; up++) {
		char *sl = strrchr(self, '/');
		if (!sl || sl == self)
			return NULL;
		*sl = 0;
	}
	char *mk = xasprintf("%s/Makefile", self), *ver = xasprintf("%s/VERSION", self);
	int ok = access(mk, R_OK) == 0 && access(ver, R_OK) == 0;
	free(mk);
	free(ver);
	return ok ? xstrdup(self) : NULL;
}

/* The newest bundle of this version for family in dir, or NULL. */
static char *find_in(const char *dir, const char *family)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char *best = NULL;
	time_t best_t = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char b[80];
		const char *f = bundle_family(e->d_name, b, sizeof b);
		if (!f || strcmp(f, family))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && (!best || st.st_mtime > best_t)) {
			free(best);
			best = p;
			best_t = st.st_mtime;
		} else {
			free(p);
		}
	}
	closedir(d);
	return best;
}

/* `make -C tree bundle`, its output on stderr (stdout is the run's). 0 when it succeeded. */
static int make_bundle(const char *tree)
{
	fprintf(stderr, "plumb on: no bundle for this architecture yet: make -C %s bundle\n", tree);
	fflush(NULL);
	pid_t pid = plumb_fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(2, 1);
		execlp("make", "make", "-s", "-C", tree, "bundle", (char *)NULL);
		fprintf(stderr, "cannot run make: %s\n", strerror(errno));
		_exit(127);
	}
	int st = child_wait(pid);
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

char *bundle_pick(const char *given, const char *host, const char *machine, char *why,
		  size_t len)
{
	char fb[80], lb[80], cb[80];
	const char *family = arch_family(machine, fb, sizeof fb);
	struct stat st;
	if (given && stat(given, &st) == 0 && S_ISREG(st.st_mode)) {
		const char *bf = bundle_family(given, lb, sizeof lb);
		if (bf && strcmp(bf, family)) {
			snprintf(why, len, "wrong architecture: %s is %s (uname -m), the bundle %s is "
				 "for %s", host, machine, given, bf);
			return NULL;
		}
		return xstrdup(given);
	}
	if (given && (stat(given, &st) != 0 || !S_ISDIR(st.st_mode))) {
		snprintf(why, len, "--bundle %s: no such file or directory", given);
		return NULL;
	}
	char *tree = own_tree(), *found = NULL;
	if (given)
		found = find_in(given, family);
	else if (!(found = find_in(".", family)) && tree)
		found = find_in(tree, family);
	struct utsname u;
	if (!found && !given && tree && uname(&u) == 0 &&
	    !strcmp(arch_family(u.machine, lb, sizeof lb), family) && make_bundle(tree) == 0)
		found = find_in(tree, family);
	if (!found)
		snprintf(why, len, "wrong architecture: no plumb-%s-*.tar.gz bundle for %s "
			 "(uname -m: %s) in %s: build one with `make bundle CC=%s` and give it with "
			 "--bundle FILE", PLUMB_VERSION, host, machine,
			 given ? given : tree ? "this directory or the source tree" : "this directory",
			 cross_cc(family, cb, sizeof cb));
	free(tree);
	return found;
}
