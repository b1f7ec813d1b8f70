/* on.c — `plumb on HOST [run] [run options]`: the suite on another machine over the user's own
 * ssh. The target's `uname -m` picks the bundle (on_bundle.c); it is unpacked in a private
 * directory there (mktemp -d), `plumb run` runs from it with its TMPDIR inside it, the run's JSON
 * comes back and is stored here with the target's facts, and the directory is removed, also when
 * a stop (SIGINT, SIGTERM, SIGHUP) ends plumb. `plumb on HOST ab --a BUNDLE --b BUNDLE [ab
 * options]`: a plumb ab session of two builds there, both bundles unpacked side by side in the
 * private directory, B's plumb running the session with the two plumb binaries as its sides,
 * its verdict passing through, both runs brought back and stored here, the exit status ab's. Each failure is one line: no ssh, no space,
 * wrong architecture, a library the target lacks. Not to be confused with `run --remote`, which
 * measures the network against `plumb serve`. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "cmd/on.h"
#include "cmd/on_ssh.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"

struct on_cli {
	const char **ssh_opts;
	size_t nssh;
	const char *ssh_config, *bundle, *remote_dir, *db, *output;
	int no_store;
	int ab;                 /* `plumb on HOST ab`: a session of two bundles */
	const char *ab_a, *ab_b; /* their --a and --b */
};

static void add_ssh_opt(const char *arg, void *field)
{
	struct on_cli *a = (struct on_cli *)((char *)field - offsetof(struct on_cli, ssh_opts));
	a->ssh_opts = xrealloc(a->ssh_opts, (a->nssh + 1) * sizeof *a->ssh_opts);
	a->ssh_opts[a->nssh++] = arg;
}

const struct opt on_options[] = {
	OPT_CALLBACK(0, "ssh-option", struct on_cli, ssh_opts, "OPT", add_ssh_opt,
		"give ssh -o OPT (again for more: Port=2222, ProxyJump=gw, BatchMode=yes)"),
	OPT_STRING(0, "ssh-config", struct on_cli, ssh_config, "FILE", "give ssh -F FILE"),
	OPT_STRING(0, "bundle", struct on_cli, bundle, "FILE|DIR",
		"the bundle to copy, or where to look for plumb-VERSION-TRIPLE.tar.gz"),
	OPT_STRING(0, "remote-dir", struct on_cli, remote_dir, "DIR",
		"where on the target the private directory is made (default $TMPDIR or /tmp)"),
	OPT_STRING(0, "db", struct on_cli, db, "FILE|URI", "the local store the run goes into"),
	OPT_BOOL(0, "no-store", struct on_cli, no_store, "do not store the run here"),
	OPT_STRING(0, "output", struct on_cli, output, "FILE", "also write the run's JSON here (-o)"),
	OPT_END,
};

/* The session's state, for the one-line failures and the cleanup on the target. */
static struct ssh_to tgt;
static char *remote_dir; /* the private directory on the target, once made */

/* Remove what was made on the target, then say what failed in one line and exit 2 (3 for a
 * run that could not be made), or die of the stop that arrived. */
__attribute__((noreturn, format(printf, 2, 3))) static void give_up(int code, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	int sig = ssh_stop_sig, left = remote_dir && ssh_remove_dir(&tgt, remote_dir) != 0;
	if (left)
		warnx_("could not remove %s on %s: remove it by hand", remote_dir, tgt.host);
	if (sig) {
		warnx_("stopped by %s%s", signal_name(sig), left ? "" : "; nothing left on the target");
		cleanup_run();
		exit(die_of_signal(sig));
	}
	die(code, "%s", line);
}

/* The last line of what a step printed on stderr, made safe for a terminal. */
static const char *last_line(const char *err, char *buf, size_t len)
{
	const char *end = err + strlen(err);
	while (end > err && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > err && start[-1] != '\n')
		start--;
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%.*s", (int)(end - start), start);
	return term_str(tmp, buf, len);
}

/* The line of err holding needle (NULL: none), made safe for a terminal. */
static const char *line_with(const char *err, const char *needle, char *buf, size_t len)
{
	const char *at = strstr(err, needle);
	if (!at)
		return NULL;
	const char *start = at, *end = at + strcspn(at, "\n");
	while (start > err && start[-1] != '\n')
		start--;
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%.*s", (int)(end - start), start);
	return term_str(tmp, buf, len);
}

/* A step that failed, in one line: what its stderr and status say. */
__attribute__((noreturn)) static void step_failed(const char *what, const struct ssh_out *o)
{
	char last[1024];
	const char *e = o->err ? o->err : "", *lib;
	last_line(e, last, sizeof last);
	if (o->status < 0 || (WIFEXITED(o->status) && WEXITSTATUS(o->status) == 127 &&
			      strstr(e, "cannot run ssh")))
		give_up(EXIT_USAGE, "cannot run ssh here: %s", last);
	if (WIFEXITED(o->status) && WEXITSTATUS(o->status) == 255)
		give_up(EXIT_USAGE, "no ssh to %s: %s", tgt.host, last);
	const char *full = line_with(e, "No space left on device", last, sizeof last);
	if (full || (full = line_with(e, "Disk quota exceeded", last, sizeof last)))
		give_up(EXIT_USAGE, "no space on %s in %s: %s", tgt.host,
			remote_dir ? remote_dir : "its temporary directory", full);
	if ((lib = strstr(e, "error while loading shared libraries: "))) {
		char name[256];
		lib += strlen("error while loading shared libraries: ");
		snprintf(name, sizeof name, "%.*s", (int)strcspn(lib, ":\n"), lib);
		give_up(EXIT_USAGE, "%s lacks a library the bundle's plumb needs: %s (a bundle from "
			"`make bundle` is static and needs none)", tgt.host, term_str(name, last, sizeof last));
	}
	if (strstr(e, "Exec format error") || strstr(e, "cannot execute binary") ||
	    strstr(e, "not executable") || strstr(e, "Syntax error"))
		give_up(EXIT_USAGE, "wrong architecture: the bundle's plumb does not run on %s: %s",
			tgt.host, last);
	give_up(EXIT_USAGE, "%s on %s failed: %s", what, tgt.host, *last ? last : "no message");
}

/* The words given to `plumb run` on the target: every one not an option of plumb on. */
static char **split_args(int argc, char **argv, struct on_cli *a, int *nrun)
{
	char **run = xcalloc((size_t)argc + 1, sizeof *run);
	int used;
	*nrun = 0;
	for (int i = 2; i < argc; i += used) {
		used = 1;
		if (i == 2 && !strcmp(argv[i], "run"))
			continue;
		if (i == 2 && !strcmp(argv[i], "ab")) {
			a->ab = 1;
			continue;
		}
		const char **side = a->ab && !strncmp(argv[i], "--a", 3) ? &a->ab_a
				  : a->ab && !strncmp(argv[i], "--b", 3) ? &a->ab_b : NULL;
		if (side && (argv[i][3] == '=' || !argv[i][3])) {
			if (!argv[i][3] && i + 1 >= argc)
				die(EXIT_USAGE, "option %s needs a bundle (try 'plumb on --help')", argv[i]);
			*side = argv[i][3] ? argv[i] + 4 : argv[i + 1];
			used = argv[i][3] ? 1 : 2;
			continue;
		}
		if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "option -o needs a value (try 'plumb on --help')");
			a->output = argv[i + 1];
			used = 2;
			continue;
		}
		if (command_word("on", on_options, argv, argc, i, a, &used))
			continue;
		if (!strcmp(argv[i], "--json") || (!a->ab && !strncmp(argv[i], "--format", 8)) ||
		    !strcmp(argv[i], "--dry-run") || !strncmp(argv[i], "--ab-worker", 11) ||
		    (a->ab && !strncmp(argv[i], "--json-dir", 10)))
			die(EXIT_USAGE, "%s is not an option of plumb on (try 'plumb on --help')", argv[i]);
		run[(*nrun)++] = argv[i];
	}
	if (a->ab && (!a->ab_a || !a->ab_b))
		die(EXIT_USAGE, "plumb on HOST ab needs --a BUNDLE and --b BUNDLE (try 'plumb on --help')");
	if (a->ab && (a->bundle || a->output))
		die(EXIT_USAGE, "%s: plumb on HOST ab takes its bundles as --a and --b and stores both runs "
			"here (try 'plumb on --help')", a->bundle ? "--bundle" : "-o");
	return run;
}

/* Lines of a step's stdout: the k-th (0-based) into buf, or "" when it has fewer. */
static const char *nth_line(const char *out, int k, char *buf, size_t len)
{
	const char *p = out;
	for (int i = 0; i < k && p; i++)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	snprintf(buf, len, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
	return buf;
}

/* Make the private directory (remote_dir) unless it is made, unpack the bundle in it (in its
 * subdirectory sub, when given) and check that its plumb starts there; returns the bundle's
 * directory on the target. */
static char *unpack(const char *bundle, const char *base, const char *sub)
{
	char *cmd = xstrdup(remote_dir ? "umask 077; d=" : "umask 077; d=$(mktemp -d ");
	if (remote_dir) {
		sh_append(&cmd, remote_dir);
	} else if (base) {
		char *tmpl = xasprintf("%s/plumb-on.XXXXXX", base);
		sh_append(&cmd, tmpl);
		free(tmpl);
	} else {
		char *t = xasprintf("%s\"${TMPDIR:-/tmp}/plumb-on.XXXXXX\"", cmd);
		free(cmd);
		cmd = t;
	}
	/* sub is a plain word of this file ("a", "b"): no quoting needed */
	char *into = sub ? xasprintf("&& mkdir %s && cd %s ", sub, sub) : xstrdup("");
	char *full = xasprintf("%s%s || exit 3; echo \"$d\"; cd \"$d\" %s&& tar xzf - && "
			       "for b in */bin/plumb; do :; done && cd \"${b%%/bin/plumb}\" && pwd && "
			       "bin/plumb --version", cmd, remote_dir ? "" : ")", into);
	free(into);
	free(cmd);
	struct ssh_out o;
	int stopped = ssh_step(&tgt, full, bundle, 1, NULL, &o);
	free(full);
	char dir[4096], bdir[4096];
	if (!remote_dir && nth_line(o.out, 0, dir, sizeof dir)[0] == '/')
		remote_dir = xstrdup(dir);
	if (stopped)
		give_up(EXIT_USAGE, "stopped");
	if (o.status != 0 || !remote_dir)
		step_failed("unpacking the bundle", &o);
	nth_line(o.out, 1, bdir, sizeof bdir);
	if (bdir[0] != '/' || strncmp(nth_line(o.out, 2, dir, sizeof dir), "plumb ", 6))
		step_failed("unpacking the bundle", &o);
	ssh_out_free(&o);
	return xstrdup(bdir);
}

/* `plumb run` from the bundle (bdir), or with ab_a set `plumb ab` from it with the plumb of
 * the bundle in ab_a as side A and its own as side B: its pid kept for a stop, its files in the
 * private directory, its JSON written there; its progress, summary and verdict pass through.
 * Returns its exit status when it is one of a finished command (0; ab: also 1 and 4, its
 * verdicts), else says what failed and exits. */
static int run_there(const char *bdir, const char *ab_a, char **args, int nargs)
{
	char *cmd = xstrdup("d=");
	sh_append(&cmd, remote_dir);
	char *t = xasprintf("%s; cd ", cmd);
	free(cmd);
	cmd = t;
	sh_append(&cmd, bdir);
	t = xasprintf("%s&& echo $$ >\"$d/pid\" && TMPDIR=\"$d\" && export TMPDIR && exec "
		      "bin/plumb %s ", cmd, ab_a ? "ab --no-store --json-dir \"$d\" --b bin/plumb --a"
						 : "run --no-store -o \"$d/run.json\"");
	free(cmd);
	cmd = t;
	if (ab_a) { /* ab splits a side's command line at blanks: none in its path, then */
		char *pa = xasprintf("%s/bin/plumb", ab_a);
		if (strpbrk(pa, " \t\n"))
			give_up(EXIT_USAGE, "the bundle's directory on %s has a blank, which plumb ab "
				"cannot take in a side's command: give --remote-dir DIR without one",
				tgt.host);
		sh_append(&cmd, pa);
		free(pa);
	}
	for (int i = 0; i < nargs; i++)
		sh_append(&cmd, args[i]);
	struct ssh_out o;
	int stopped = ssh_step(&tgt, cmd, NULL, 0, NULL, &o);
	free(cmd);
	if (stopped)
		give_up(EXIT_USAGE, "stopped");
	if (WIFEXITED(o.status) && WEXITSTATUS(o.status) == 255)
		give_up(EXIT_MEASURE, "lost the ssh connection to %s during the run", tgt.host);
	int st = WIFEXITED(o.status) ? WEXITSTATUS(o.status) : -1;
	if (st != 0 && !(ab_a && (st == 1 || st == EXIT_NOT_JUDGED)))
		give_up(st == EXIT_USAGE ? EXIT_USAGE : EXIT_MEASURE,
			"plumb %s on %s failed (exit %d): its own line is above", ab_a ? "ab" : "run",
			tgt.host, st >= 0 ? st : 128 + WTERMSIG(o.status));
	ssh_out_free(&o);
	return st;
}

/* A run's JSON (name: run.json, A.json, B.json) from the target into a local file of that
 * name; returns its path. */
static char *fetch(const char *name)
{
	char *cmd = xstrdup("cat ");
	char *path = xasprintf("%s/%s", remote_dir, name);
	sh_append(&cmd, path);
	free(path);
	struct ssh_out o;
	int stopped = ssh_step(&tgt, cmd, NULL, 1, NULL, &o);
	free(cmd);
	if (stopped)
		give_up(EXIT_USAGE, "stopped");
	if (o.status != 0)
		step_failed("fetching the run", &o);
	char *local = xasprintf("%s/%s", tgt.scratch, name);
	FILE *f = fopen(local, "w");
	if (!f || fputs(o.out, f) == EOF || fclose(f) != 0)
		give_up(EXIT_MEASURE, "cannot write %s: %s", local, strerror(errno));
	ssh_out_free(&o);
	return local;
}

/* An ab session's two runs (A.json, B.json) stored here in one transaction, the target named
 * among their facts. */
static void keep_ab(char *const json[2], const struct on_cli *a)
{
	struct run *runs[2];
	char err[1024];
	for (int s = 0; s < 2; s++) {
		if (!(runs[s] = run_read_file(json[s], err, sizeof err)))
			die(EXIT_MEASURE, "the session's run from %s does not read back: %s", tgt.host,
			    err);
		kv_set(&runs[s]->facts, "ssh_target", tgt.host);
	}
	char host[RUN_TEXT_MAX * 4], la[RUN_TEXT_MAX * 4], lb[RUN_TEXT_MAX * 4];
	term_str(runs[0]->host ? runs[0]->host : "?", host, sizeof host);
	term_str(runs[0]->label ? runs[0]->label : "", la, sizeof la);
	term_str(runs[1]->label ? runs[1]->label : "", lb, sizeof lb);
	if (!a->no_store) {
		struct store *s = store_open(a->db, STORE_CREATE, err, sizeof err);
		if (!s || store_save_all(s, runs, 2, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
		store_close(s);
		/* on stderr, as ab says where it stored: stdout is the verdict alone (--format) */
		warnx_("runs %ld (%s) and %ld (%s): stored here, measured on %s; plumb compare %ld %ld",
		       runs[0]->id, la, runs[1]->id, lb, host, runs[0]->id, runs[1]->id);
	} else {
		warnx_("runs %s and %s of %s: not stored (--no-store)", la, lb, host);
	}
	run_free(runs[0]);
	run_free(runs[1]);
}

/* Store the run here (and write -o FILE), the target named among its facts. */
static int keep(const char *json, const struct on_cli *a)
{
	struct run **runs = NULL;
	size_t n = 0;
	char err[1024];
	if (runs_read_file(json, &runs, &n, err, sizeof err) || n != 1)
		die(EXIT_MEASURE, "the run from %s does not read back: %s", tgt.host,
		    n != 1 ? "not one run" : err);
	kv_set(&runs[0]->facts, "ssh_target", tgt.host);
	if (a->output) {
		FILE *f = fopen(a->output, "w");
		if (!f || run_write_json(runs[0], f) != 0 || fclose(f) != 0)
			die(EXIT_MEASURE, "-o %s: %s", a->output, strerror(errno));
	}
	char host[RUN_TEXT_MAX * 4];
	term_str(runs[0]->host ? runs[0]->host : "?", host, sizeof host);
	if (!a->no_store) {
		struct store *s = store_open(a->db, STORE_CREATE, err, sizeof err);
		if (!s || store_save_all(s, runs, 1, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
		store_close(s);
		printf("run %ld: stored here, measured on %s (%s, %zu results)\n", runs[0]->id, host,
		       kv_get(&runs[0]->facts, "arch") ? kv_get(&runs[0]->facts, "arch") : "?",
		       runs[0]->results.n);
	} else {
		printf("run of %s: not stored (--no-store)\n", host);
	}
	run_free(runs[0]);
	free(runs);
	return 0;
}

/* `plumb on HOST ab`: both bundles there, the session run from B's, its runs brought back. */
static int on_ab(const struct on_cli *a, const char *machine, char **args, int nrun)
{
	char why[1024], *bundle[2], *bdir[2], *json[2];
	const char *given[2] = { a->ab_a, a->ab_b };
	for (int s = 0; s < 2; s++) {
		struct stat st;
		if (stat(given[s], &st) != 0 || !S_ISREG(st.st_mode))
			give_up(EXIT_USAGE, "--%c %s: not a bundle file (plumb-VERSION-TRIPLE.tar.gz)",
				s ? 'b' : 'a', given[s]);
		if (!(bundle[s] = bundle_pick(given[s], tgt.host, machine, why, sizeof why)))
			give_up(EXIT_USAGE, "%s", why);
	}
	bdir[0] = unpack(bundle[0], a->remote_dir, "a");
	bdir[1] = unpack(bundle[1], a->remote_dir, "b");
	int st = run_there(bdir[1], bdir[0], args, nrun);
	json[0] = fetch("A.json");
	json[1] = fetch("B.json");
	if (ssh_remove_dir(&tgt, remote_dir) != 0)
		warnx_("could not remove %s on %s: remove it by hand", remote_dir, tgt.host);
	free(remote_dir);
	remote_dir = NULL;
	keep_ab(json, a);
	for (int s = 0; s < 2; s++) {
		free(json[s]);
		free(bdir[s]);
		free(bundle[s]);
	}
	free(args);
	return st;
}

static void help(void)
{
	command_help(command_find("on"));
	printf("\nEvery other option is a run option, given to `plumb run` on the target (see "
	       "plumb run --help).\n\nplumb on HOST ab --a BUNDLE_A --b BUNDLE_B [ab options]: a "
	       "plumb ab session of two builds\non the target: both bundles (files, of the "
	       "target's architecture) unpacked in the private\ndirectory, B's plumb runs the "
	       "session with A's plumb as side A and its own as side B,\nits verdict shows here, "
	       "both runs are stored here and the exit status is ab's\n(see plumb ab --help; -o "
	       "and --bundle do not apply).\nSee docs/lab.md.\n");
}

int cmd_on(int argc, char **argv)
{
	prog_name = "plumb on";
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc < 2)
			die(EXIT_USAGE, "needs a HOST (try 'plumb on --help')");
		help();
		return 0;
	}
	if (argv[1][0] == '-' || !argv[1][0])
		die(EXIT_USAGE, "'%s' is not a host: plumb on HOST [run options]", argv[1]);
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			return 0;
		}
	struct on_cli a = { 0 };
	int nrun;
	char **args = split_args(argc, argv, &a, &nrun);
	char *scratch = private_dir(NULL);
	if (!scratch)
		die(EXIT_MEASURE, "cannot make a private directory: %s", strerror(errno));
	tgt = (struct ssh_to){ argv[1], a.ssh_opts, a.nssh, a.ssh_config, scratch };
	ssh_catch_stops();
	cleanup_announce_stops();

	struct ssh_out o;
	if (ssh_step(&tgt, "uname -m", NULL, 1, NULL, &o))
		give_up(EXIT_USAGE, "stopped");
	if (o.status != 0)
		step_failed("uname -m", &o);
	char machine[128], why[1024];
	nth_line(o.out, 0, machine, sizeof machine);
	ssh_out_free(&o);
	if (a.ab) {
		int st = on_ab(&a, machine, args, nrun);
		free(a.ssh_opts);
		return st;
	}
	char *bundle = bundle_pick(a.bundle, tgt.host, machine, why, sizeof why);
	if (!bundle)
		give_up(EXIT_USAGE, "%s", why);
	char *bdir = unpack(bundle, a.remote_dir, NULL);
	run_there(bdir, NULL, args, nrun);
	char *json = fetch("run.json");
	if (ssh_remove_dir(&tgt, remote_dir) != 0)
		warnx_("could not remove %s on %s: remove it by hand", remote_dir, tgt.host);
	free(remote_dir);
	remote_dir = NULL;
	int rc = keep(json, &a);
	free(json);
	free(bdir);
	free(bundle);
	free(args);
	free(a.ssh_opts);
	return rc;
}
