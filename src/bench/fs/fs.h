/*
 * fs.h — helpers shared by the file and VM benchmarks (src/bench/fs/, and ctx/lat_ctx.c):
 * the word sum that every read loop uses (so no read can be optimised away and the bytes can be
 * checked), the file system type of a directory, and plumb's private files.
 */
#ifndef PLUMB_BENCH_FS_H
#define PLUMB_BENCH_FS_H

#include <stddef.h>
#include <stdint.h>
#include "core/out.h"

/* Sum of every 64-bit word of p[0..len) (native byte order) plus the trailing bytes, each as a
 * number: reads every byte once. */
uint64_t fs_sum_words(const void *p, size_t len);
/* The same sum, computed byte by byte (slow, independent of alignment and chunking): the
 * reference a read loop's sum is checked against. */
uint64_t fs_sum_ref(const unsigned char *p, size_t len);
/* Name of the file system holding path ("ext4", "tmpfs", ... or "0x1234abcd"), "?" when
 * statfs fails. */
const char *fs_type_name(const char *path);
/* 1 when path is on a file system that keeps every page in memory (tmpfs, ramfs). */
int fs_in_memory(const char *path);
/* 1 when path is on ext4 mounted without a journal (no /proc/fs/jbd2 entry for its device):
 * there, creating a file skips every inode deleted in the last 60-300 s (ext4's
 * recently_deleted()), so create rates depend on earlier deletes. PLUMB_FS_NOJOURNAL=0/1
 * overrides the answer (tests). */
int fs_ext4_nojournal(const char *path);
/* Print and record the file system type of dir as [FSTYPE: name]; on tmpfs/ramfs also a line
 * saying that cold reads and real page faults cannot happen there. */
void fs_fact(struct tool_ctx *c, const char *dir);
/* plumb's private directory under --fsdir (exit 3 with one line when it cannot be made). */
char *fs_private_dir(struct tool_ctx *c);
/* Create dir/name of size bytes with a non-constant pattern, flushed to the device (fsync) so
 * its pages are clean and can be evicted. Exit 3 on failure. Returns the malloc'd path. */
char *fs_make_file(const char *dir, const char *name, uint64_t size);
/* The directory file lives in ("." for a bare name), malloc'd: for its file system type. */
char *fs_dir_of(const char *file);
/* A user FILE operand's size: it must exist and be a regular file we can read (else exit 2). */
uint64_t fs_user_file_size(struct tool_ctx *c, const char *f);
/* Open f read-only or exit 3 with one line. */
int fs_open_ro(const char *f);

#endif
