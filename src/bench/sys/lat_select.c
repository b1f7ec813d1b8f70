/*
 * lat_select.c — lat_select: the cost of select() on N descriptors that are all ready.
 *   lat_select [-n N] file|tcp
 * `file`: N duplicates of one descriptor of a temporary file in plumb's private directory
 * (lmbench put its file in the current directory). `tcp`: N duplicates of one end of a TCP
 * connection this process makes to its own listening socket on 127.0.0.1 (lmbench forked a
 * server on port 31233; the kernel completes a loopback connection without any server process,
 * so plumb needs no child and no fixed port).
 * The descriptors go in the write set, as in lmbench (a file and an idle socket are always
 * writable); each iteration selects on a fresh copy of the set with a zero timeout. Unlike
 * lmbench, nfds is the highest descriptor + 1, so every descriptor really is examined.
 * All descriptors are made before measure(): -P copies inherit them with fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_SELECT_FILE, ROW_LAT_SELECT_TCP, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct sel {
	fd_set set;
	int nfds;
};

static void loop_select(uint64_t n, void *a)
{
	struct sel *s = a;
	for (uint64_t i = 0; i < n; i++) {
		fd_set w = s->set;   /* select() overwrites its sets: a copy each time */
		struct timeval tv = { 0, 0 };
		int r = select(s->nfds, NULL, &w, NULL, &tv);
		if (r < 0 && errno != EINTR)
			die(EXIT_MEASURE, "select: %s", strerror(errno));
		KEEP(r);
	}
}

/* One descriptor of a small file of ours (unlinked at cleanup with the directory). */
static int open_file(struct tool_ctx *c)
{
	char *dir = private_dir(c->fsdir);
	if (!dir)
		die(EXIT_MEASURE, "cannot create a directory under %s: %s",
		    c->fsdir ? c->fsdir : "$TMPDIR", strerror(errno));
	char *f = xasprintf("%s/lat_select", dir);
	int fd = open(f, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0)
		die(EXIT_MEASURE, "cannot create %s: %s", f, strerror(errno));
	free(f);
	free(dir);
	return fd;
}

/* A TCP connection to ourselves on the loopback: returns the connected end; the listening
 * socket and the accepted end stay open (and out of the set) until exit. */
static int open_tcp(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0; /* ephemeral: nothing to collide with */
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die(EXIT_MEASURE, "listening socket on 127.0.0.1: %s", strerror(errno));
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a))
		die(EXIT_MEASURE, "connect to 127.0.0.1:%d: %s", ntohs(a.sin_port), strerror(errno));
	if (accept4(l, NULL, NULL, SOCK_CLOEXEC) < 0)
		die(EXIT_MEASURE, "accept: %s", strerror(errno));
	return s;
}

/* Make sure n more descriptors can be opened: raise the soft limit (up to the hard one). */
static void want_fds(unsigned n)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	rlim_t need = (rlim_t)n + 64;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct select_opts { uint64_t n; };
static const struct tool_options select_options = { .opts = (const struct opt[]){
	/* lmbench parses -n with bytes(): 1k is 1024 */
	OPT_SIZE('n', NULL, struct select_opts, n, "N", 1, FD_SETSIZE, "file descriptors",
		"descriptors to select() on (default 200)"),
	OPT_END } };

static int lat_select(struct tool_ctx *c, int argc, char **argv)
{
	struct select_opts o = { .n = 200 };
	struct operands args = options_parse(c, argc, argv, &o);
	unsigned n = (unsigned)o.n;
	if (args.n == 0)
		usage_error(c, "missing mode (file or tcp)");
	const char *mode = args.v[0];
	int tcp = strcmp(mode, "tcp") == 0;
	if (!tcp && strcmp(mode, "file") != 0)
		usage_error(c, "unknown mode '%s' (file or tcp)", mode);
	if (args.n > 1)
		usage_error(c, "too many operands");

	want_fds(n);
	int fd = tcp ? open_tcp() : open_file(c);
	struct sel s;
	FD_ZERO(&s.set);
	s.nfds = 0;
	for (unsigned i = 0; i < n; i++) {
		int d = dup(fd);
		if (d < 0)
			die(EXIT_USAGE, "-n %u: cannot open that many descriptors (%s); %u fit here",
			    n, strerror(errno), i);
		if (d >= FD_SETSIZE)
			die(EXIT_USAGE, "-n %u: select() takes descriptors below FD_SETSIZE (%d); "
			    "%u fit here", n, FD_SETSIZE, i);
		FD_SET(d, &s.set);
		if (d + 1 > s.nfds)
			s.nfds = d + 1;
	}
	struct bench_op op = { .loop = loop_select, .arg = &s };
	char params[32];
	snprintf(params, sizeof params, "n=%u", n);
	struct result *r = measure_latency(c, &op, tcp ? metrics[ROW_LAT_SELECT_TCP].id : metrics[ROW_LAT_SELECT_FILE].id,
					   params, NAN, 1);
	if (!r)
		return EXIT_MEASURE;
	result_add_info(r, "nfds=%d", s.nfds);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_select", lat_select, 0, &select_options, "[-n N] file|tcp",
	     "select() latency on N ready descriptors of a file or of TCP sockets",
	     "N (default 200, k/m suffixes as lmbench) descriptors are all duplicates of one file\n"
	     "or loopback TCP socket; the file lives under --fsdir. nfds is the highest descriptor\n"
	     "+ 1 (lmbench passed N, so its last few descriptors were never examined)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_SELECT_FILE] = { .id = "lat_select.file",
	  .cells = { { .cell = SUM_FDSEL, .read = READ_FIRST, .params = "n=100" } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "select() on n file descriptors", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Select on {n} fd's: %v microseconds", .vfmt = "%.4f",
	  .work = "one select() with a zero timeout on n descriptors of a file, all ready",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "nfds is the highest descriptor + 1, so every descriptor is examined",
	  .noise = { .group = "syscall", .run = 0.16, .run_eq = 0.16, .df = 5,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "syscall.steady", .run = 0.16, .run_eq = 0.16, .df = 5,
		   .clock = FOLLOWS_CLOCK } },
	[ROW_LAT_SELECT_TCP] = { .id = "lat_select.tcp",
	  .cells = { { .cell = SUM_TCPSEL, .read = READ_FIRST, .params = "n=100" } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "select() on n TCP sockets", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Select on {n} tcp fd's: %v microseconds", .vfmt = "%.4f",
	  .work = "one select() with a zero timeout on n descriptors of one loopback TCP socket",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "nfds is the highest descriptor + 1; the socket connects to plumb's own listener "
		"(no server process)",
	  .noise = { .group = "syscall", .run = 0.16, .run_eq = 0.16, .df = 5,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "syscall.steady", .run = 0.16, .run_eq = 0.16, .df = 5,
		   .clock = FOLLOWS_CLOCK } },
	{ 0 },
};

const struct tool_file toolfile_select = { "select", SUBSET_OS, "select() on many descriptors", tools, metrics };
