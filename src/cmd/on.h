/*
 * on.h — `plumb on HOST [run options]`: the suite run on another machine over ssh (on.c), with
 * the board bundle for its architecture (on_bundle.c) copied there by on_ssh.c.
 */
#ifndef PLUMB_ON_H
#define PLUMB_ON_H

#include <stddef.h>

/* One name per instruction set for a `uname -m` or a triple ("armv7l" and "arm-linux-gnueabihf"
 * are both "arm"); a name it does not know is returned as it is (in buf). */
const char *arch_family(const char *machine, char *buf, size_t len);
/* The family in a bundle's file name plumb-VERSION-TRIPLE.tar.gz of this version, or NULL. */
const char *bundle_family(const char *path, char *buf, size_t len);
/* The bundle for a target whose `uname -m` is machine: given (a file, or a directory to look
 * in), else the newest matching one in the current directory or this binary's source tree,
 * built there with `make bundle` when the target's family is this machine's. A malloc'd path,
 * or NULL with why set to one line ("wrong architecture: ...", naming the make bundle to run). */
char *bundle_pick(const char *given, const char *host, const char *machine, char *why,
		  size_t len);

#endif
