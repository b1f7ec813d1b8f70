/*
 * fs_common.c — what the fs family's tools share (fs.h): the word sum every read loop uses (so
 * no read can be optimised away and the bytes can be checked), the file system type of a
 * directory, plumb's private directory and files, and the checks on a FILE operand.
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
#include "bench/fs/fs.h"
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
char *fs_dir_of(const char *file)
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
uint64_t fs_user_file_size(struct tool_ctx *c, const char *f)
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

/* Open f read-only or exit 3 with one line. */
int fs_open_ro(const char *f)
{
	int fd = open(f, O_RDONLY);
	if (fd < 0)
		die(EXIT_MEASURE, "%s: %s", f, strerror(errno));
	return fd;
}

