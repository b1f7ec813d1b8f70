/*
 * lat_http.c — lat_http (the pages plumb's HTTP server end serves: http_pages.c).
 *
 * lmbench's suite unpacked a tarball of 14 web pages (webpage-lm, about 42 KB, 3.2 KB on
 * average) and served them with lmhttp. plumb generates a page set of the same shape in memory
 * instead: 14 HTML pages of fixed sizes with deterministic text, served by the engine in net.c
 * (which only looks a requested path up in http_pages.c's table). One operation of lat_http
 * fetches every URL of the list in turn, each over a new connection (connect, GET, read to the
 * end, close), like lmbench; the line printed is lmbench's:
 *   Avg xfer: <mean KB per URL>KB, <total KB>KB in <ms per pass> millisecs, <MB/sec>
 * with KB = 1000 bytes and MB = 10^6 bytes (as lmbench's figures work out). lmbench divided the
 * total by count - 1 for the mean; plumb divides by count.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "bench/tool.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_HTTP_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* ---- lat_http ------------------------------------------------------------------------------- */

struct httpl {
	struct net_client nc;
	char **urls;
	int nurls;
	uint64_t bytes;      /* bytes received in one pass (checked to be the same every pass) */
	char buf[65536];
};

/* GET one URL; returns the bytes received (headers included), or -1. Sets *status. */
static long long http_get(struct httpl *h, const char *url, int *status)
{
	int fd = net_connect(&h->nc.ss, h->nc.sslen);
	if (fd < 0)
		return -1;
	net_timeouts(fd, 10);
	char req[600];
	int n = snprintf(req, sizeof req, "GET %s%s HTTP/1.0\r\nUser-Agent: plumb\r\n\r\n",
			 url[0] == '/' ? "" : "/", url);
	if (n < 0 || (size_t)n >= sizeof req || write_in_full(fd, req, (size_t)n) < 0) {
		close(fd);
		return -1;
	}
	long long total = 0;
	ssize_t r;
	while ((r = read(fd, h->buf, sizeof h->buf)) > 0 || (r < 0 && errno == EINTR)) {
		if (r > 0 && total == 0 && status)
			*status = r > 12 && strncmp(h->buf, "HTTP/1.", 7) == 0 ? atoi(h->buf + 9) : 0;
		if (r > 0)
			total += r;
	}
	close(fd);
	return r < 0 ? -1 : total;
}

static uint64_t http_pass(struct httpl *h)
{
	uint64_t sum = 0;
	for (int i = 0; i < h->nurls; i++) {
		long long got = http_get(h, h->urls[i], NULL);
		if (got < 0)
			die(EXIT_MEASURE, "GET %s from %s failed: %s", h->urls[i],
			    net_client_hostname(&h->nc), strerror(errno));
		sum += (uint64_t)got;
	}
	return sum;
}

static int http_setup(void *a)
{
	struct httpl *h = a;
	if (net_client_setup(&h->nc, SOCK_STREAM) < 0)
		return -1;
	/* Check every URL answers 200 before timing anything. */
	for (int i = 0; i < h->nurls; i++) {
		int status = 0;
		long long got = http_get(h, h->urls[i], &status);
		if (got < 0) {
			warnx_("GET %s from %s: %s", h->urls[i], net_client_hostname(&h->nc), strerror(errno));
			return -1;
		}
		if (status != 200) {
			warnx_("GET %s from %s: HTTP status %d", h->urls[i], net_client_hostname(&h->nc), status);
			return -1;
		}
	}
	h->bytes = http_pass(h);
	return 0;
}

static void http_loop(uint64_t n, void *a)
{
	struct httpl *h = a;
	for (uint64_t i = 0; i < n; i++)
		if (http_pass(h) != h->bytes)
			die(EXIT_MEASURE, "the pages from %s changed size during the run",
			    net_client_hostname(&h->nc));
}

static void http_teardown(void *a)
{
	net_client_teardown(&((struct httpl *)a)->nc);
}

/* URLs from stdin, one a line (lmbench's interface), when stdin is not a terminal and has
 * something to read within a moment (an idle inherited pipe must not hang the suite). */
static int read_urls(struct httpl *h)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	if (isatty(0) || poll(&p, 1, 200) != 1)
		return 0;
	char line[512];
	int cap = 0;
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		char *u = line;
		while (*u == ' ' || *u == '\t')
			u++;
		if (!*u || *u == '#')
			continue;
		if (strlen(u) > 400 || strpbrk(u, " \t"))
			die(EXIT_USAGE, "bad URL path in the list: '%.40s'", u);
		if (h->nurls == cap) {
			cap = cap ? 2 * cap : 16;
			h->urls = xrealloc(h->urls, (size_t)cap * sizeof *h->urls);
		}
		h->urls[h->nurls++] = xstrdup(u);
	}
	return h->nurls;
}

struct http_opts { int start, stop, base; };
static const struct tool_options http_options = { .opts = (const struct opt[]){
	OPT_BOOL('s', NULL, struct http_opts, start,
		"start a background server on 8008 (127.0.0.1) and return"),
	OPT_BOOL('S', NULL, struct http_opts, stop, "stop the server on HOST"),
	OPT_IGNORED('d', NULL, "lmbench's debug flag: accepted, no effect"),
	OPT_IGNORED('e', NULL, "lmbench's debug flag: accepted, no effect"),
	OPT_INT('b', NULL, struct http_opts, base, "BASE", 1, 65535 - NS_COUNT,
		"plumb serve base port", "talk to `plumb serve --port BASE`"),
	OPT_END } };

static int lat_http(struct tool_ctx *c, int argc, char **argv)
{
	struct http_opts o = { 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	int start = o.start, stop = o.stop, base = o.base;
	if (args.n > 2)
		usage_error(c, "too many operands (HOST [PORT])");
	const char *host = args.n > 0 ? args.v[0] : NULL;
	int port = args.n > 1 ? net_parse_port(c, args.v[1], "PORT") : 0;
	if (start && stop)
		usage_error(c, "-s and -S exclude each other");
	if (start) {
		if (host)
			usage_error(c, "-s takes no HOST (give the port as -s PORT is not supported; default 8008)");
		return net_tool_start(c, NS_HTTP, 0);
	}
	if (stop) {
		if (!host)
			usage_error(c, "-S needs the HOST whose server to stop");
		return net_tool_stop(c, NS_HTTP, host, port);
	}
	static struct httpl h;
	h.nc = (struct net_client){ .svc = NS_HTTP, .port = port, .base = base };
	net_client_prepare(c, &h.nc, host);
	if (!h.nc.host || !read_urls(&h)) {
		h.urls = (char **)net_http_urls;
		for (h.nurls = 0; net_http_urls[h.nurls]; h.nurls++)
			;
	}
	struct bench_op op = { .setup = http_setup, .loop = http_loop, .teardown = http_teardown,
			       .arg = &h, .helpers = h.nc.host ? 0 : 1, .no_parallel = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	char *params = xasprintf("host=%s", net_client_hostname(&h.nc));
	struct tool_ctx quiet = *c;   /* the registry has no line for it: print lmbench's here */
	quiet.out = NULL;
	struct result *r = record_latency(&quiet, metrics[ROW_LAT_HTTP_LATENCY].id, params, NAN, &m, 1);
	c->results = quiet.results;
	double ms = r->value, kb = (double)h.bytes / 1e3, mbs = (double)h.bytes / (ms * 1e3);
	out_printf(c, "Avg xfer: %.1fKB, %.1fKB in ", kb / h.nurls, kb);
	out_printf(c, ms > 100 ? "%.0f millisecs, " : "%.4f millisecs, ", ms);
	out_printf(c, mbs > 1 ? "%.2f MB/sec\n" : "%.2f KB/sec\n", mbs > 1 ? mbs : mbs * 1e3);
	result_add_info(r, "urls=%d bytes=%llu", h.nurls, (unsigned long long)h.bytes);
	free(params);
	measurement_free(&m);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_http", lat_http, 0, &http_options, "-s | [-b BASE] [HOST [PORT]] [< URLS] | -S HOST [PORT]",
	     "HTTP latency: fetch a list of pages, each over a new connection",
	     "Without HOST plumb serves its own 14 generated pages (about 40 KB) on an ephemeral\n"
	     "port. With HOST (port 8008 by default, lmbench's suite port) the URL paths are read\n"
	     "from stdin when it is not a terminal, else the built-in list is used; -s starts a\n"
	     "background server on 8008 (127.0.0.1), -S HOST stops it. -d and -e are accepted."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_HTTP_LATENCY] = { .id = "lat_http.latency",
	  .unit = "ms", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "HTTP GET of a set of pages",
	  .line = NULL, .vfmt = "%.4f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .block = LMB_HTTP },
	  .work = "fetching every URL of the page list, each over a new connection",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "the 14 pages are generated in memory, same shape; the mean divides by count, "
		"not count - 1",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_http = { "http", SUBSET_OS, "HTTP latency", tools, metrics };
