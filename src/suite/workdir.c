/*
 * workdir.c — where and how big: the top of the memory series and the size of $FILE from the
 * machine, the sample counts every step child inherits, plumb's private directories (the
 * children's TMPDIR and --fsdir's), $FILE itself, and the sweeping and cache dropping between
 * steps. Nothing outside plumb's private directories is written or removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"
#include "suite/noise.h"
#include "suite/suite.h"

/* Remove whatever a step left in dir (a killed child cannot clean up), except keep. */
void sweep(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (keep && !strcmp(e->d_name, keep)))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		remove_tree(p);
		free(p);
	}
	closedir(d);
}

/* $FILE for the file benchmarks when lmdd did not write it (not built, or failed). */
int make_file(const char *path, uint64_t bytes)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	static char buf[1 << 20];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)('a' + i % 26);
	for (uint64_t left = bytes; left > 0 && !suite_stop_sig;) {
		size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
		ssize_t w = write(fd, buf, n);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		left -= (uint64_t)w;
	}
	close(fd);
	return 0;
}

void drop_caches(void)
{
	static int warned;
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		if (!warned++)
			run_warn("--cold: cannot drop the page cache: %s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

/* Sizes from the machine, and the sample counts and placement every step is handed. */
void set_sizes_and_timing(struct suite_plan *P)
{
	const struct run_opts *o = &P->o;
	if (o->mem)
		snprintf(P->mem_how, sizeof P->mem_how, "--mem");
	else
		P->mem = plan_default_mem(o->copies, !o->dry_run, P->mem_how, sizeof P->mem_how);
	if (o->mem)
		P->mem = o->mem;
	struct cache_level cl[8];
	int cpus[1];
	P->line = 64;
	if (sys_caches(cpu_online(cpus, 1) ? cpus[0] : 0, cl, 8) > 0 && cl[0].line > 0)
		P->line = cl[0].line;
	P->file_bytes = o->profile == PROF_QUICK ? 16 * MIB : o->profile == PROF_FULL ? P->mem : 64 * MIB;
	if (P->file_bytes > P->mem)
		P->file_bytes = P->mem;

	timing_ctx_init(&P->timing);
	if (o->cpu)
		cpu_policy_init(&P->timing.place, o->cpu);
	if (o->samples)
		P->timing.opts.repetitions = o->samples;
	else if (o->profile == PROF_QUICK)
		P->timing.opts.repetitions = 5;
	if (o->max_samples) {
		P->timing.opts.max_samples = o->max_samples;
		P->timing.opts.target_ci = 0.01;
	} else if (o->profile == PROF_FULL) {
		P->timing.opts.max_samples = 51;
		P->timing.opts.target_ci = 0.01;
	} else if (o->profile == PROF_DEFAULT && !o->samples && o->repeat > 1) {
		/* Rounds spread each metric's samples over the run (run_opts.h). */
		P->timing.opts.repetitions = DEFAULT_ROUND_SAMPLES;
	} else if (o->profile == PROF_DEFAULT && !o->samples) {
		/* One round (--repeat 1): spend the budget where the noise is: 7 samples for a
		 * steady metric, up to 21 until the median's 95 % CI is within +-2 % for a noisy one
		 * (the count is in each result). */
		P->timing.opts.repetitions = 7;
		P->timing.opts.max_samples = 21;
		P->timing.opts.target_ci = 0.02;
	}
	P->reps = P->timing.opts.repetitions ? P->timing.opts.repetitions : TIMING_DEFAULT_REPS;
}

/* Private directories: the children's TMPDIR, and where file benchmarks work ($FILE). */
void make_dirs(struct suite_plan *P)
{
	P->rundir = private_dir(NULL);
	if (!P->rundir)
		die(EXIT_MEASURE, "cannot create a temporary directory: %s", strerror(errno));
	P->fsrun = P->o.fsdir ? private_dir(P->o.fsdir) : P->rundir;
	if (!P->fsrun)
		die(EXIT_MEASURE, "cannot create a directory in %s: %s", P->o.fsdir, strerror(errno));
	struct statvfs vf;
	if (statvfs(P->fsrun, &vf) == 0) {
		uint64_t free_b = (uint64_t)vf.f_bavail * vf.f_frsize;
		if (free_b < 2 * P->file_bytes) {
			uint64_t f = MIB;
			while (f * 2 <= free_b / 4)
				f *= 2;
			run_warn("only %llu MiB free in %s: file benchmarks use a %llu MiB file",
				 (unsigned long long)(free_b / MIB), P->fsrun, (unsigned long long)(f / MIB));
			P->file_bytes = f;
		}
	}
	P->file = xasprintf("%s/XXX", P->fsrun);
}

