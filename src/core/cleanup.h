/*
 * cleanup.h — nothing plumb starts or creates outlives it. Every child process is forked with
 * plumb_fork() (registered, and killed by the kernel if plumb dies: PR_SET_PDEATHSIG), every
 * temporary file or directory is registered; both are removed at exit and on SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT, after which the signal is re-raised so the exit status tells the truth.
 */
#ifndef PLUMB_CLEANUP_H
#define PLUMB_CLEANUP_H

#include <sys/types.h>

/* Install the handlers and the atexit hook (idempotent). */
void cleanup_init(void);
/* fork(); the child starts with empty registries and dies with its parent. -1 on failure. */
pid_t plumb_fork(void);
/* Forget a child that has been reaped. */
void child_forget(pid_t pid);
/* The registered children (live, not yet reaped) into out; returns how many (at most max). */
int child_list(pid_t *out, int max);
/* Kill (SIGKILL) and reap every registered child. */
void child_kill_all(void);
/* waitpid() that retries on EINTR and forgets the child; returns its status or -1. */
int child_wait(pid_t pid);
/* Wait up to grace_ms for pid to exit; then SIGKILL it (and the process group it leads) and
 * reap it. Returns its wait status or -1. */
int child_wait_bounded(pid_t pid, int grace_ms);
/* "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", ... ("a signal" for one it does not know). */
const char *signal_name(int sig);
/* Die of sig, once everything is saved and removed, so that a shell running plumb in a loop
 * sees the interrupt (WIFSIGNALED) and stops too; returns 128 + sig when the process lives on
 * (SIGQUIT, which would dump core, is not raised). */
int die_of_signal(int sig);
/* SIGINT, SIGTERM and SIGHUP call handler (which sets a flag), without SA_RESTART, so that every
 * read, poll and wait of the caller returns and can see the flag; the other signals are masked
 * while it runs. */
void catch_stop_signals(void (*handler)(int));
/* From now on, when a stop signal ends this process through the cleanup handler, it says
 * "PROG: stopped by SIGxxx" on stderr (once; its forked children stay quiet). */
void cleanup_announce_stops(void);
/* Register a path we created: removed (recursively for directories) at cleanup. */
void path_register(const char *path, int is_dir);
void path_forget(const char *path);
/* Create a private directory "plumb.XXXXXX" under base (NULL: $TMPDIR or /tmp), registered.
 * Returns a malloc'd path or NULL (errno set). */
char *private_dir(const char *base);
/* path with every private_dir() component ("plumb.XXXXXX") written "plumb.*", so a parameter
 * naming a file in a private directory is the same in every run (results compare by params). */
char *stable_path(const char *path, char *buf, size_t len);
/* Remove a tree we created (no symlink following). 0 on success. */
int remove_tree(const char *path);
/* Do all cleanup now (children, then paths). Safe to call more than once. */
void cleanup_run(void);
/* Set by the handler when a signal arrived (plumb run checks it between benchmarks). */
extern volatile int cleanup_signalled;

#endif
