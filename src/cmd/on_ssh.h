/*
 * on_ssh.h — `plumb on`'s use of OpenSSH: the user's own ssh client (their ~/.ssh/config, keys,
 * agent and jump hosts), one session per step, each command quoted for the target's POSIX shell.
 * A stop (SIGINT, SIGTERM, SIGHUP) sent to plumb ends the step's ssh and is reported to the
 * caller, which removes what it made on the target before dying of the signal.
 */
#ifndef PLUMB_ON_SSH_H
#define PLUMB_ON_SSH_H

#include <stddef.h>
#include <signal.h>

struct ssh_to {
	const char *host;     /* [user@]host, or a Host of the ssh config */
	const char **opts;    /* each given to ssh as -o OPT */
	size_t nopts;
	const char *config;   /* ssh -F FILE, or NULL */
	const char *scratch;  /* a local private directory for what a step prints */
};

/* What one step gave: its wait status (-1: it could not start), and, when captured, what it
 * wrote on stdout and stderr (malloc'd, NUL-terminated, possibly empty). */
struct ssh_out {
	int status;
	char *out, *err;
};

/* The stop signal that arrived (0: none); set by ssh_catch_stops()' handler. */
extern volatile sig_atomic_t ssh_stop_sig;
void ssh_catch_stops(void);

/* Run cmd on the target: stdin from in_path (NULL: /dev/null); capture: stdout and stderr into
 * o, else both pass through to plumb's own. Returns 0, or -1 when a stop arrived (the ssh has
 * then been ended and reaped; what it printed so far is still in o). extra: one more -o option
 * (NULL: none). */
int ssh_step(const struct ssh_to *t, const char *cmd, const char *in_path, int capture,
	     const char *extra, struct ssh_out *o);
void ssh_out_free(struct ssh_out *o);

/* s quoted for a POSIX shell (single quotes), appended to *buf (malloc'd, may start NULL). */
void sh_append(char **buf, const char *s);

/* Stop the run in dir on the target (its pid file), wait for it a few seconds, remove dir.
 * Bounded in time; 0 when the target said the directory is gone. */
int ssh_remove_dir(const struct ssh_to *t, const char *dir);

#endif
