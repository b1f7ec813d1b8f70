/*
 * files.c — file and VM benchmarks: lat_fs (create/delete), bw_file_rd and bw_mmap_rd (re-read
 * bandwidth), lat_mmap (map+touch+unmap) and lat_pagefault (real page faults), plus the helpers
 * the file family shares (files.h). What each measures: docs/files.md.
 *
 * Safety: every file plumb writes lives in its private directory (private_dir under --fsdir,
 * default $TMPDIR or /tmp), removed at exit and on signals. A FILE operand the user names is
 * only ever opened O_RDONLY and mapped PROT_READ; its page cache is left alone.
 */
/* 64-bit file offsets on 32-bit systems too (armhf): files and devices beyond 2 GiB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "bench/files.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/util.h"

/* ---- shared helpers ------------------------------------------------------------------------ */

uint64_t fs_sum_words(const void *p, size_t len)
{
	const uint64_t *w = p;
	size_t nw = len / 8;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t i = 0;
	/* Four independent sums: the loads, not one add chain, set the pace. */
	for (; i + 4 <= nw; i += 4) {
		s0 += w[i];
		s1 += w[i + 1];
		s2 += w[i + 2];
		s3 += w[i + 3];
	}
	for (; i < nw; i++)
		s0 += w[i];
	const unsigned char *t = (const unsigned char *)p + nw * 8;
	for (size_t k = 0; k < len % 8; k++)
		s1 += t[k];
	return s0 + s1 + s2 + s3;
}

uint64_t fs_sum_ref(const unsigned char *p, size_t len)
{
	uint64_t s = 0;
	size_t full = len / 8 * 8;
	for (size_t i = 0; i < full; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		s += w;
	}
	for (size_t i = full; i < len; i++)
		s += p[i];
	return s;
}

static const struct { unsigned long magic; const char *name; } fs_names[] = {
	{ 0x01021994, "tmpfs" }, { 0x858458f6, "ramfs" }, { 0xEF53, "ext4" },
	{ 0x58465342, "xfs" }, { 0x9123683E, "btrfs" }, { 0x794c7630, "overlayfs" },
	{ 0x6969, "nfs" }, { 0x2fc12fc1, "zfs" }, { 0xF2F52010, "f2fs" },
	{ 0x65735546, "fuse" }, { 0x4d44, "vfat" }, { 0x2011BAB0, "exfat" },
	{ 0x5346544e, "ntfs" }, { 0xFF534D42, "cifs" }, { 0xFE534D42, "smb2" },
	{ 0x01021997, "9p" }, { 0x3153464a, "jfs" }, { 0x52654973, "reiserfs" },
	{ 0x73717368, "squashfs" }, { 0xf15f, "ecryptfs" }, { 0x24051905, "ubifs" },
	{ 0x28cd3d45, "cramfs" }, { 0x6a656a63, "fakeowner" }, { 0x62656572, "sysfs" },
};

const char *fs_type_name(const char *path)
{
	static char buf[32];
	struct statfs s;
	if (statfs(path, &s) != 0)
		return "?";
	unsigned long t = (unsigned long)s.f_type & 0xffffffffUL;
	for (size_t i = 0; i < sizeof fs_names / sizeof fs_names[0]; i++)
		if (fs_names[i].magic == t)
			return fs_names[i].name;
	snprintf(buf, sizeof buf, "0x%lx", t);
	return buf;
}

int fs_in_memory(const char *path)
{
	const char *n = fs_type_name(path);
	return !strcmp(n, "tmpfs") || !strcmp(n, "ramfs");
}

int fs_ext4_nojournal(const char *path)
{
	const char *force = getenv("PLUMB_FS_NOJOURNAL");
	if (force && *force)
		return strcmp(force, "0") != 0;
	struct stat st;
	if (strcmp(fs_type_name(path), "ext4") || stat(path, &st) != 0)
		return 0;
	/* the device's name as /proc/fs/ext4 and /proc/fs/jbd2 spell it ("vda", "sda1") */
	char link[64], target[256];
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	ssize_t n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return 0;
	target[n] = 0;
	const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char p[320];
	snprintf(p, sizeof p, "/proc/fs/ext4/%s", name);
	if (access(p, F_OK) != 0)
		return 0; /* cannot tell */
	DIR *d = opendir("/proc/fs/jbd2");
	int journal = 0;
	size_t nl = strlen(name);
	for (struct dirent *e; d && (e = readdir(d));)
		journal |= !strncmp(e->d_name, name, nl) && e->d_name[nl] == '-';
	if (d)
		closedir(d);
	return !journal;
}

void fs_fact(struct tool_ctx *c, const char *dir)
{
	out_fact(c, NULL, "FSTYPE", "%s", fs_type_name(dir));
	if (fs_in_memory(dir))
		out_fact(c, NULL, "TMPFS", "%s", "every page lives in memory here: no cold reads, "
			 "no real page faults, fsync writes nothing");
}

char *fs_private_dir(struct tool_ctx *c)
{
	char *d = private_dir(c->fsdir);
	if (!d)
		die(EXIT_MEASURE, "cannot create a directory under %s: %s",
		    c->fsdir ? c->fsdir : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		    strerror(errno));
	return d;
}

char *fs_make_file(const char *dir, const char *name, uint64_t size)
{
	char *f = xasprintf("%s/%s", dir, name);
	int fd = open(f, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0)
		die(EXIT_MEASURE, "cannot create %s: %s", f, strerror(errno));
	size_t bs = 1 << 20;
	uint64_t *b = xmalloc(bs);
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < bs ? (size_t)(size - off) : bs;
		for (size_t i = 0; i < bs / 8; i++)
			b[i] = (off / 8 + i) * 0x9E3779B97F4A7C15ull; /* distinct words */
		ssize_t w = write(fd, b, n);
		if (w != (ssize_t)n)
			die(EXIT_MEASURE, "cannot write %s: %s", f, w < 0 ? strerror(errno) : "short write");
		off += n;
	}
	free(b);
	/* Clean pages can be dropped from the page cache: lat_pagefault relies on it. */
	if (fsync(fd) != 0 && errno != EINVAL)
		die(EXIT_MEASURE, "fsync %s: %s", f, strerror(errno));
	close(fd);
	return f;
}

/* The directory a FILE operand (or our own file) lives in, for its file system type. */
static char *dir_of(const char *file)
{
	char *d = xstrdup(file);
	char *s = strrchr(d, '/');
	if (!s) {
		free(d);
		return xstrdup(".");
	}
	if (s == d)
		s[1] = 0;
	else
		*s = 0;
	return d;
}

/* A user FILE operand: must exist and be a regular file we can read. */
static uint64_t user_file_size(struct tool_ctx *c, const char *f)
{
	struct stat st;
	if (stat(f, &st) != 0)
		die(EXIT_USAGE, "%s: %s", f, strerror(errno));
	if (!S_ISREG(st.st_mode))
		die(EXIT_USAGE, "%s: not a regular file", f);
	if (access(f, R_OK) != 0)
		die(EXIT_USAGE, "%s: %s", f, strerror(errno));
	(void)c;
	return (uint64_t)st.st_size;
}

/* The measurement facts finish() records for record_latency/record_bandwidth, for results made
 * with record_values (rates computed here). */
static void meas_info(struct result *r, const struct measurement *m)
{
	result_add_info(r, "cpu=%d copies=%d iters=%llu min_sample_ns=%.0f", m->cpu, m->parallel,
		 (unsigned long long)m->iters, m->min_sample_ns);
}

/* ---- lat_fs: create and delete files ------------------------------------------------------ */

#define FS_PER_DIR 100   /* names per directory, as lmbench: directory size stays small */

struct fsb {
	char *base;        /* our private directory */
	size_t size;       /* bytes written to each file */
	char *buf;
	int round;         /* a fresh tree per interval */
	int dfd;           /* the interval's tree */
	int *sub;          /* its subdirectories */
	uint64_t nsub;
	char tree[64];
};

static void tree_make(struct fsb *f, uint64_t files)
{
	snprintf(f->tree, sizeof f->tree, "t%d.%d", (int)getpid(), f->round++); /* -P copies */
	int bfd = open(f->base, O_RDONLY | O_DIRECTORY);
	if (bfd < 0 || mkdirat(bfd, f->tree, 0700) != 0)
		die(EXIT_MEASURE, "mkdir in %s: %s", f->base, strerror(errno));
	f->dfd = openat(bfd, f->tree, O_RDONLY | O_DIRECTORY);
	close(bfd);
	f->nsub = (files + FS_PER_DIR - 1) / FS_PER_DIR;
	f->sub = xcalloc(f->nsub ? f->nsub : 1, sizeof *f->sub);
	for (uint64_t d = 0; d < f->nsub; d++) {
		char n[24];
		snprintf(n, sizeof n, "%llu", (unsigned long long)d);
		if (mkdirat(f->dfd, n, 0700) != 0 ||
		    (f->sub[d] = openat(f->dfd, n, O_RDONLY | O_DIRECTORY)) < 0)
			die(EXIT_MEASURE, "mkdir in %s: %s", f->base, strerror(errno));
	}
}

static void tree_remove(struct fsb *f)
{
	for (uint64_t d = 0; d < f->nsub; d++)
		close(f->sub[d]);
	free(f->sub);
	f->sub = NULL;
	close(f->dfd);
	char *p = xasprintf("%s/%s", f->base, f->tree);
	remove_tree(p);
	free(p);
}

static void name_of(uint64_t i, char *n)
{
	/* Short decimal names; formatting is a few ns against a create's microseconds. */
	snprintf(n, 24, "%llu", (unsigned long long)(i % FS_PER_DIR));
}

static void create_files(struct fsb *f, uint64_t iters)
{
	char n[24];
	for (uint64_t i = 0; i < iters; i++) {
		name_of(i, n);
		int fd = openat(f->sub[i / FS_PER_DIR], n, O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (fd < 0)
			die(EXIT_MEASURE, "create in %s: %s", f->base, strerror(errno));
		for (size_t off = 0; off < f->size;) {
			size_t chunk = f->size - off > 128 * 1024 ? 128 * 1024 : f->size - off;
			ssize_t w = write(fd, f->buf, chunk);
			if (w <= 0)
				die(EXIT_MEASURE, "write in %s: %s", f->base, strerror(errno));
			off += (size_t)w;
		}
		close(fd);
	}
}

static void delete_files(struct fsb *f, uint64_t iters)
{
	char n[24];
	for (uint64_t i = 0; i < iters; i++) {
		name_of(i, n);
		if (unlinkat(f->sub[i / FS_PER_DIR], n, 0) != 0)
			die(EXIT_MEASURE, "unlink in %s: %s", f->base, strerror(errno));
	}
}

static void cr_before(uint64_t iters, void *a) { tree_make(a, iters); }
static void cr_loop(uint64_t iters, void *a) { create_files(a, iters); }
static void cr_after(uint64_t iters, void *a) { tree_remove(a); }
static void del_before(uint64_t iters, void *a) { tree_make(a, iters); create_files(a, iters); }
static void del_loop(uint64_t iters, void *a) { delete_files(a, iters); }

static struct result *record_rate(struct tool_ctx *c, const char *metric, const char *params,
				  const struct measurement *m)
{
	struct sample *s = xcalloc(m->n ? m->n : 1, sizeof *s);
	for (size_t i = 0; i < m->n; i++) {
		s[i] = m->s[i];
		s[i].value = m->s[i].value > 0 ? 1e9 / m->s[i].value : NAN;
	}
	struct result *r = record_values(c, metric, params, NAN, s, m->n);
	meas_info(r, m);
	free(s);
	return r;
}

struct fs_opts { uint64_t size; int size_given, nfiles; };
static const struct tool_options fs_options = { .opts = (const struct opt[]){
	{ 's', NULL, OPT_SIZE, 0, 1ll << 30, offsetof(struct fs_opts, size), "size",
	  "file size", "only this file size (default: 0k 1k 4k 10k)", NULL },
	{ 'n', NULL, OPT_INT, 1, 10000000, offsetof(struct fs_opts, nfiles), "files",
	  "files per interval", "files created and deleted per timed interval", NULL },
	{ 0 } } };

static int lat_fs(struct tool_ctx *c, int argc, char **argv)
{
	struct fs_opts o = { .size = UINT64_MAX };
	options_parse(c, argc, argv, &fs_options, &o);
	long long one_size = o.size == UINT64_MAX ? -1 : (long long)o.size, nfiles = o.nfiles;
	if (argc - optind > 1)
		usage_error(c, "too many operands (one directory at most)");
	if (optind < argc) {
		struct stat st;
		if (stat(argv[optind], &st) != 0 || !S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "%s: not a directory", argv[optind]);
		c->fsdir = argv[optind];
	}
	struct fsb f = { 0 };
	f.base = fs_private_dir(c);
	fs_fact(c, f.base);
	int history = fs_ext4_nojournal(f.base);
	if (history) { /* the sentence on screen, the word in the facts */
		out_printf(c, "[FS caveat: %s]\n", caveat_text(CAVEAT_FS_HISTORY));
		FILE *o = c->out;
		c->out = NULL;
		out_fact(c, NULL, "FS_caveat", "%s", CAVEAT_FS_HISTORY);
		c->out = o;
	}
	static const long long defaults[] = { 0, 1024, 4096, 10240 };
	int nsizes = one_size >= 0 ? 1 : 4;
	for (int k = 0; k < nsizes; k++) {
		f.size = (size_t)(one_size >= 0 ? one_size : defaults[k]);
		f.buf = xcalloc(1, f.size < 128 * 1024 ? f.size + 1 : 128 * 1024);
		memset(f.buf, 'p', f.size < 128 * 1024 ? f.size : 128 * 1024);
		char params[48];
		snprintf(params, sizeof params, "size=%zu", f.size);
		struct bench_op cr = { .before = cr_before, .loop = cr_loop, .after = cr_after,
				       .arg = &f, .fixed_iters = (uint64_t)nfiles };
		struct bench_op del = { .before = del_before, .loop = del_loop, .after = cr_after,
					.arg = &f, .fixed_iters = (uint64_t)nfiles };
		struct measurement mc, md;
		if (measure(&cr, &mc) != 0 || measure(&del, &md) != 0)
			return EXIT_MEASURE;
		struct result *rc = record_rate(c, "lat_fs.create", params, &mc);
		struct result *rd = record_rate(c, "lat_fs.delete", params, &md);
		if (history)
			result_add_info(rc, "caveat=%s", CAVEAT_FS_HISTORY);
		out_printf(c, "%zuk\t%llu\t%.0f\t%.0f\n", f.size >> 10, (unsigned long long)mc.iters,
			   rc->value, rd->value);
		measurement_free(&mc);
		measurement_free(&md);
		free(f.buf);
	}
	free(f.base); /* the directory itself goes at exit (cleanup.h) */
	return 0;
}

/* ---- bw_file_rd, bw_mmap_rd: re-read bandwidth --------------------------------------------- */

#define RD_UNIT (64 * 1024)   /* lmbench's XFERSIZE */

struct rd {
	const char *file;
	uint64_t size;     /* bytes read per iteration */
	size_t unit;
	int fd;
	unsigned char *buf;
	const unsigned char *map;
	uint64_t pass_sum; /* sum of the last full pass: checked against the file afterwards */
	uint64_t acc;
};

static size_t read_full(int fd, unsigned char *b, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static int open_ro(const char *f)
{
	int fd = open(f, O_RDONLY);
	if (fd < 0)
		die(EXIT_MEASURE, "%s: %s", f, strerror(errno));
	return fd;
}

/* Read the first size bytes of fd, summing every word. */
static uint64_t read_pass(struct rd *r, int fd)
{
	uint64_t sum = 0;
	for (uint64_t off = 0; off < r->size;) {
		size_t n = r->size - off < r->unit ? (size_t)(r->size - off) : r->unit;
		if (read_full(fd, r->buf, n) != n)
			die(EXIT_MEASURE, "%s: short read at %llu", r->file, (unsigned long long)off);
		sum += fs_sum_words(r->buf, n);
		off += n;
	}
	return sum;
}

static int rd_setup(void *a)
{
	struct rd *r = a;
	r->unit = r->size < RD_UNIT ? (size_t)r->size : RD_UNIT;
	r->buf = xmalloc(r->unit + 8);
	r->fd = -1;
	return 0;
}

static void io_only_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		if (lseek(r->fd, 0, SEEK_SET) != 0)
			die(EXIT_MEASURE, "lseek %s: %s", r->file, strerror(errno));
		r->pass_sum = read_pass(r, r->fd);
		r->acc += r->pass_sum;
	}
	KEEP(r->acc);
}

static void file_o2c_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		int fd = open_ro(r->file);
		r->pass_sum = read_pass(r, fd);
		r->acc += r->pass_sum;
		close(fd);
	}
	KEEP(r->acc);
}

static int io_only_setup(void *a)
{
	struct rd *r = a;
	rd_setup(a);
	r->fd = open_ro(r->file);
	return 0;
}

static void mmap_only_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		/* The mapping does not change between passes: the barrier makes the compiler read
		 * it again each time instead of reusing the first pass's sum. */
		compiler_barrier();
		r->pass_sum = fs_sum_words(r->map, (size_t)r->size);
		r->acc += r->pass_sum;
	}
	KEEP(r->acc);
}

static const unsigned char *map_ro(struct rd *r, int fd)
{
	void *p = mmap(NULL, (size_t)r->size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die(EXIT_MEASURE, "mmap %s: %s", r->file, strerror(errno));
	return p;
}

static int mmap_only_setup(void *a)
{
	struct rd *r = a;
	r->fd = open_ro(r->file);
	r->map = map_ro(r, r->fd);
	return 0;
}

static void mmap_o2c_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		int fd = open_ro(r->file);
		const unsigned char *p = map_ro(r, fd);
		r->pass_sum = fs_sum_words(p, (size_t)r->size);
		r->acc += r->pass_sum;
		munmap((void *)p, (size_t)r->size);
		close(fd);
	}
	KEEP(r->acc);
}

static void rd_teardown(void *a)
{
	struct rd *r = a;
	sink_u64(r->acc);
	if (r->map)
		munmap((void *)r->map, (size_t)r->size);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	r->map = NULL;
	r->buf = NULL;
	r->fd = -1;
}

/* The reference: the file's first size bytes summed byte by byte with pread, in pieces whose
 * boundaries are word-aligned (as the read loop's are). */
static uint64_t reference_sum(const char *file, uint64_t size)
{
	int fd = open_ro(file);
	size_t bs = 1 << 20;
	unsigned char *b = xmalloc(bs);
	uint64_t s = 0;
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < bs ? (size_t)(size - off) : bs;
		ssize_t got = pread(fd, b, n, (off_t)off);
		if (got != (ssize_t)n)
			die(EXIT_MEASURE, "%s: short read", file);
		s += fs_sum_ref(b, n);
		off += n;
	}
	free(b);
	close(fd);
	return s;
}

/* Common front of bw_file_rd and bw_mmap_rd: "size mode [file]". */
static int bw_rd(struct tool_ctx *c, int argc, char **argv, int is_mmap)
{
	options_parse(c, argc, argv, NULL, NULL);
	const char *m1 = is_mmap ? "mmap_only" : "io_only";
	if (argc - optind < 2)
		usage_error(c, "usage: size %s|open2close [file]", m1);
	if (argc - optind > 3)
		usage_error(c, "too many operands");
	struct rd r = { .fd = -1 };
	r.size = parse_size(argv[optind], 512, (uint64_t)SIZE_MAX / 2, "size (at least 512 bytes)");
	const char *mode = argv[optind + 1];
	int o2c;
	if (!strcmp(mode, m1))
		o2c = 0;
	else if (!strcmp(mode, "open2close"))
		o2c = 1;
	else
		usage_error(c, "unknown mode '%s' (%s or open2close)", mode, m1);
	char *own = NULL;
	if (argc - optind == 3) {
		r.file = argv[optind + 2];
		uint64_t fsz = user_file_size(c, r.file);
		if (fsz < r.size)
			die(EXIT_USAGE, "%s: %llu bytes, shorter than size %llu", r.file,
			    (unsigned long long)fsz, (unsigned long long)r.size);
	} else {
		char *dir = fs_private_dir(c);
		r.file = own = fs_make_file(dir, "XXX", r.size);
		free(dir);
	}
	char *d = dir_of(r.file);
	const char *fstype = fs_type_name(d);
	free(d);
	struct bench_op op = { .arg = &r, .teardown = rd_teardown };
	if (is_mmap) {
		op.setup = o2c ? rd_setup : mmap_only_setup;
		op.loop = o2c ? mmap_o2c_loop : mmap_only_loop;
	} else {
		op.setup = o2c ? rd_setup : io_only_setup;
		op.loop = o2c ? file_o2c_loop : io_only_loop;
	}
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	/* The loop's sum of one pass must be the file's: every byte was read, none invented.
	 * (With -P the copies ran elsewhere: check one pass here.) */
	if (m.parallel > 1 || !r.pass_sum) {
		struct measurement one;
		struct bench_op o1 = op;
		static const struct timing_defaults one_pass = { .repetitions = 1 };
		o1.fixed_iters = 1;
		o1.no_parallel = 1;
		o1.sampling = &one_pass;
		if (measure(&o1, &one) == 0)
			measurement_free(&one);
	}
	uint64_t want = reference_sum(r.file, r.size);
	if (r.pass_sum != want)
		die(EXIT_MEASURE, "%s: the bytes read do not match the file (sum %llx, expected %llx)",
		    r.file, (unsigned long long)r.pass_sum, (unsigned long long)want);
	const char *metric = is_mmap ? (o2c ? "bw_mmap_rd.open2close" : "bw_mmap_rd.mmap_only")
				     : (o2c ? "bw_file_rd.open2close" : "bw_file_rd.io_only");
	struct result *res = record_bandwidth(c, metric, "", (double)r.size / 1e6, &m, (double)r.size);
	result_add_info(res, "fstype=%s file=%s bytes_per_pass=%llu checksum=verified sum=%llx", fstype,
		 own ? "own" : r.file, (unsigned long long)r.size, (unsigned long long)want);
	measurement_free(&m);
	free(own);
	return 0;
}

static int bw_file_rd(struct tool_ctx *c, int argc, char **argv) { return bw_rd(c, argc, argv, 0); }
static int bw_mmap_rd(struct tool_ctx *c, int argc, char **argv) { return bw_rd(c, argc, argv, 1); }

/* ---- lat_mmap: map, touch, unmap ---------------------------------------------------------- */

struct mm {
	const char *file;
	int fd;
	size_t size, span, stride;
	uint64_t acc;
	struct rusage ru0;
	uint64_t ops;        /* mappings made while faults were counted */
	long majflt, minflt; /* faults the kernel counted during them */
};

/* Fault counts around every timed interval (untimed): the faults really taken, which on a
 * kernel with large folios are far fewer than the touches. */
static void mm_before(uint64_t iters, void *a)
{
	struct mm *m = a;
	getrusage(RUSAGE_SELF, &m->ru0);
}

static void mm_after(uint64_t iters, void *a)
{
	struct mm *m = a;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	m->majflt += ru.ru_majflt - m->ru0.ru_majflt;
	m->minflt += ru.ru_minflt - m->ru0.ru_minflt;
	m->ops += iters;
}

static void mm_loop(uint64_t iters, void *a)
{
	struct mm *m = a;
	uint64_t acc = m->acc;
	for (uint64_t i = 0; i < iters; i++) {
		volatile unsigned char *p = mmap(NULL, m->size, PROT_READ, MAP_SHARED, m->fd, 0);
		if (p == MAP_FAILED)
			die(EXIT_MEASURE, "mmap %s: %s", m->file, strerror(errno));
		for (size_t off = 0; off < m->span; off += m->stride)
			acc += p[off];
		munmap((void *)p, m->size);
	}
	m->acc = acc;
	KEEP(m->acc);
}

struct mmap_opts { int rnd; };
static const struct tool_options mmap_options = { .opts = (const struct opt[]){
	{ 'r', NULL, OPT_FLAG, 0, 0, offsetof(struct mmap_opts, rnd), NULL, NULL,
	  "touch the pages in a random order", NULL },
	{ 0 } } };

static int lat_mmap(struct tool_ctx *c, int argc, char **argv)
{
	struct mmap_opts o = { 0 };
	options_parse(c, argc, argv, &mmap_options, &o);
	int rnd = o.rnd;
	if (argc - optind < 1)
		usage_error(c, "missing size");
	if (argc - optind > 2)
		usage_error(c, "too many operands");
	struct mm m = { .fd = -1 };
	m.size = (size_t)parse_size(argv[optind], 320 * 1024, (uint64_t)SIZE_MAX / 2, "size (at least 320k)");
	char *own = NULL;
	if (argc - optind == 2) {
		m.file = argv[optind + 1];
		if (user_file_size(c, m.file) < m.size)
			die(EXIT_USAGE, "%s: shorter than size %zu", m.file, m.size);
	} else {
		char *dir = fs_private_dir(c);
		m.file = own = fs_make_file(dir, "XXX", m.size);
		free(dir);
	}
	/* lmbench: one byte every 16 KiB of the first tenth, or with -r every 160 KiB of all. */
	m.span = rnd ? m.size : m.size / 10;
	m.stride = rnd ? 160 * 1024 : 16 * 1024;
	m.fd = open_ro(m.file);
	struct bench_op op = { .before = mm_before, .loop = mm_loop, .after = mm_after, .arg = &m };
	struct measurement ms;
	if (measure(&op, &ms) != 0)
		return EXIT_MEASURE;
	sink_u64(m.acc);
	char *d = dir_of(m.file);
	struct result *r = record_latency(c, "lat_mmap.latency", rnd ? "touch=spread" : "",
					  (double)m.size / 1e6, &ms, 1);
	/* per operation = per mapping; per fault = the operation's time over the faults it took */
	size_t touches = (m.span + m.stride - 1) / m.stride;
	double ops = m.ops ? (double)m.ops : 1, flt = (double)(m.majflt + m.minflt) / ops;
	char per_fault[32] = "none"; /* no fault taken: no cost per fault */
	if (flt > 0)
		snprintf(per_fault, sizeof per_fault, "%.4f", r->value / flt);
	result_add_info(r, "fstype=%s file=%s touches_per_op=%zu faults_per_op=%.3f "
			"majflt_per_op=%.3f minflt_per_op=%.3f us_per_touch=%.4f us_per_fault=%s",
			fs_type_name(d), own ? "own" : m.file, touches, flt, (double)m.majflt / ops,
			(double)m.minflt / ops, r->value / (double)touches, per_fault);
	free(d);
	measurement_free(&ms);
	close(m.fd);
	free(own);
	return 0;
}

/* ---- lat_pagefault: real page faults ------------------------------------------------------ */

#define PF_DEFAULT_SIZE (8u << 20)

struct pf {
	const char *file;
	int fd;
	int evict;           /* drop the file's pages before every pass (our own file only) */
	size_t len, pg, npages;
	size_t *order;       /* pages in random order */
	const volatile unsigned char *map;
	unsigned char *vec;  /* mincore */
	size_t resident_max; /* pages found resident right before a pass */
	long majflt, minflt; /* counted by the kernel during the timed passes */
	uint64_t passes;     /* passes the counts cover */
	struct rusage ru0;
	uint64_t acc;
};

static void pf_map(struct pf *p)
{
	if (p->map)
		munmap((void *)p->map, p->len);
	/* Unmapped first, then dropped: mapped pages cannot leave the page cache. */
	if (p->evict && posix_fadvise(p->fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
		p->evict = 0;
	void *m = mmap(NULL, p->len, PROT_READ, MAP_SHARED, p->fd, 0);
	if (m == MAP_FAILED)
		die(EXIT_MEASURE, "mmap %s: %s", p->file, strerror(errno));
	/* No read-around: each touched page is its own fault, as the random order intends. */
	madvise(m, p->len, MADV_RANDOM);
	p->map = m;
}

static size_t pf_resident(struct pf *p)
{
	size_t n = 0;
	if (mincore((void *)p->map, p->len, p->vec) != 0)
		return 0;
	for (size_t i = 0; i < p->npages; i++)
		n += p->vec[i] & 1;
	return n;
}

static void pf_before(uint64_t iters, void *a)
{
	struct pf *p = a;
	pf_map(p);
	size_t r = pf_resident(p);
	if (r > p->resident_max)
		p->resident_max = r;
	getrusage(RUSAGE_SELF, &p->ru0);
}

static void pf_loop(uint64_t iters, void *a)
{
	struct pf *p = a;
	uint64_t acc = p->acc;
	for (uint64_t i = 0; i < iters; i++)
		for (size_t k = 0; k < p->npages; k++)
			acc += p->map[p->order[k] * p->pg];
	p->acc = acc;
	KEEP(p->acc);
}

static void pf_after(uint64_t iters, void *a)
{
	struct pf *p = a;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	p->majflt += ru.ru_majflt - p->ru0.ru_majflt;
	p->minflt += ru.ru_minflt - p->ru0.ru_minflt;
	p->passes += iters;
}

static int lat_pagefault(struct tool_ctx *c, int argc, char **argv)
{
	options_parse(c, argc, argv, NULL, NULL);
	if (argc - optind > 1)
		usage_error(c, "too many operands");
	struct pf p = { .fd = -1 };
	p.pg = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t size;
	char *own = NULL;
	if (argc - optind == 1) {
		p.file = argv[optind];
		size = user_file_size(c, p.file);
		if (size < (1u << 20))
			die(EXIT_USAGE, "%s: must be at least 1 MiB", p.file);
	} else {
		char *dir = fs_private_dir(c);
		size = PF_DEFAULT_SIZE;
		p.file = own = fs_make_file(dir, "XXX", size);
		free(dir);
	}
	if (size > (uint64_t)SIZE_MAX / 2) /* a 32-bit address space maps less */
		size = (uint64_t)SIZE_MAX / 2;
	p.len = (size_t)(size / p.pg * p.pg);
	p.npages = p.len / p.pg;
	p.fd = open_ro(p.file);
	p.order = xmalloc(p.npages * sizeof *p.order);
	p.vec = xmalloc(p.npages + 1);
	for (size_t i = 0; i < p.npages; i++)
		p.order[i] = i;
	uint64_t x = 0x2545F4914F6CDD1Dull; /* fixed seed: the same order every run */
	for (size_t i = p.npages - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % (i + 1)), t = p.order[i];
		p.order[i] = p.order[j];
		p.order[j] = t;
	}

	char *d = dir_of(p.file);
	const char *fstype = fs_type_name(d);
	int inmem = fs_in_memory(d);
	free(d);
	out_fact(c, NULL, "FSTYPE", "%s", fstype);
	/* Only a file plumb created is evicted; then check that eviction really empties the page
	 * cache before calling the faults "major". */
	p.evict = own != NULL;
	const char *why = NULL;
	if (inmem) {
		why = "tmpfs/ramfs keep every page in memory: no real page fault or cold read is "
		      "possible here; these are minor faults";
	} else if (!p.evict) {
		why = "a file plumb did not create is never evicted: these are minor faults "
		      "(omit FILE for real ones)";
	} else {
		pf_map(&p);
		size_t left = pf_resident(&p);
		if (left * 10 > p.npages) {
			why = "the file's pages stay in memory after eviction: mostly minor faults";
			p.evict = 0;
		}
	}
	if (why)
		out_fact(c, NULL, "PAGEFAULT", "%s", why);

	/* One iteration = one pass touching every page once; per-page cost = pass / npages. */
	struct bench_op op = { .before = pf_before, .loop = pf_loop, .after = pf_after, .arg = &p,
			       .fixed_iters = 1, .no_parallel = 1 };
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	char params[600];
	/* Our own file's directory name is random; the parameter names where it lives
	 * (<fsdir>/XXX, like lmbench's $FSDIR/XXX) so runs compare; the real path is in info. */
	if (own) {
		const char *base = c->fsdir && *c->fsdir ? c->fsdir
				 : getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		char sp[512];
		snprintf(params, sizeof params, "file=%s/XXX", stable_path(base, sp, sizeof sp));
	} else {
		snprintf(params, sizeof params, "file=%s", p.file);
	}
	struct result *r = record_latency(c, "lat_pagefault.latency", params, NAN, &m,
					  (double)p.npages);
	/* Faults were counted around every pass, calibration and warm-up included: per page is
	 * over all of them. Per fault: the time per page touched over the faults per page. */
	double passes = p.passes ? (double)p.passes : 1;
	double fpp = (double)(p.majflt + p.minflt) / passes / (double)p.npages;
	char per_fault[32] = "none";
	if (fpp > 0)
		snprintf(per_fault, sizeof per_fault, "%.4f", r->value / fpp);
	result_add_info(r, "path=%s fstype=%s pages=%zu page_size=%zu evicted=%s resident_before_pass_max=%zu "
		 "majflt_per_page=%.3f minflt_per_page=%.3f faults_per_page=%.3f us_per_fault=%s",
		 p.file, fstype, p.npages, p.pg, p.evict ? "yes" : "no", p.resident_max,
		 p.majflt / passes / (double)p.npages, p.minflt / passes / (double)p.npages, fpp,
		 per_fault);
	measurement_free(&m);
	munmap((void *)p.map, p.len);
	close(p.fd);
	free(p.order);
	free(p.vec);
	free(own);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_fs", lat_fs, 0, "[-s size] [-n files] [dir]",
	     "file creations and deletions per second (sizes 0k 1k 4k 10k)",
	     "Prints 'SIZEk FILES CREATES/s DELETES/s' per size. Files go in a private directory\n"
	     "under dir (or --fsdir, $TMPDIR, /tmp), at most 100 per directory, removed after."),
	TOOL("bw_file_rd", bw_file_rd, 0, "size io_only|open2close [file]",
	     "re-read bandwidth of a cached file with read(), every word summed",
	     "Prints 'MB MB/s'. Without file, plumb creates one of size bytes in its private\n"
	     "directory; a named file is only read. The bytes summed are checked against the file."),
	TOOL("bw_mmap_rd", bw_mmap_rd, 0, "size mmap_only|open2close [file]",
	     "read bandwidth of a mapped cached file, every word summed",
	     "Prints 'MB MB/s'. The file is mapped read-only; without file plumb creates one."),
	TOOL("lat_mmap", lat_mmap, 0, "[-r] size [file]",
	     "mmap + touch one byte per 16 KiB of the first tenth + munmap",
	     "Prints 'MB microseconds'. -r touches one byte per 160 KiB over the whole size.\n"
	     "The mapping is read-only (lmbench mapped read-write and wrote: method version 2);\n"
	     "without file plumb creates one. The faults the kernel really took (getrusage) are\n"
	     "recorded per mapping and the time per fault (large folios map many pages per fault)."),
	TOOL("lat_pagefault", lat_pagefault, 0, "[file]",
	     "cost of a real (major) page fault per page, the file's pages evicted before each pass",
	     "Without file plumb creates an 8 MiB file and drops its pages from the page cache\n"
	     "before every pass (checked with mincore): each touch, in random page order and\n"
	     "without read-around, is a major fault. On tmpfs, or with a file plumb did not\n"
	     "create (never evicted), the faults are minor and the output says so. docs/files.md."),
	{ 0 },
};

const struct family fam_files = { "files", SUBSET_OS, "file system and VM", tools };
