/*
 * serve.c — `plumb serve`: the server end of every network benchmark, for clients on another
 * host (`lat_tcp HOST`, `plumb run --remote HOST[:BASE]`).
 *
 *   plumb serve [--bind ADDR] [--port BASE] [--idle SECONDS] [-v]
 *
 * Without --port the services listen on lmbench's ports (TCP latency 31234, UDP 34298,
 * connect 31237, bw_tcp 31236, RPC 31239, HTTP 8008, bw_udp 34297); with --port BASE on BASE
 * and the six ports after it (net.h). It binds 127.0.0.1 unless --bind names an address. It
 * runs in the foreground until SIGINT/SIGTERM, or until no client has come for --idle seconds.
 * Stop requests from clients (-S) are ignored; each connection has read/write timeouts and the
 * number served at once is capped (the engine in src/bench/net.c), and nothing a client sends is
 * executed.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "bench/net/net.h"
#include "cmd/commands.h"
#include "core/cleanup.h"
#include "core/opts.h"
#include "core/util.h"

__attribute__((noreturn)) static void serve_usage(void)
{
	fprintf(stderr, "plumb serve: usage: plumb serve [--bind ADDR] [--port BASE] [--idle SECONDS] [-v]\n");
	exit(EXIT_USAGE);
}

struct serve_cli {
	const char *bind;
	int base, idle, verbose;
};

const struct opt serve_options[] = {
	OPT_STRING(0, "bind", struct serve_cli, bind, "ADDR",
		"address to listen on (default 127.0.0.1)"),
	OPT_INT(0, "port", struct serve_cli, base, "BASE", 1, 65535 - NS_COUNT, "base port",
		"listen on BASE and the 6 ports after it (default: lmbench's ports)"),
	OPT_INT(0, "idle", struct serve_cli, idle, "SECONDS", 1, 100000000, "seconds",
		"exit when no client came for this long (default: run until Ctrl-C)"),
	OPT_BOOL('v', "verbose", struct serve_cli, verbose, "log each connection on stderr"),
	OPT_END,
};

__attribute__((noreturn)) static void serve_bad(const char *cmd, const char *word, int missing)
{
	serve_usage();
}

int cmd_serve(int argc, char **argv)
{
	struct serve_cli a = { .bind = "127.0.0.1" };
	static const struct command_options t = { "serve", serve_options, 1, serve_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *bind_addr = a.bind;
	int base = a.base, idle = a.idle, verbose = a.verbose;
	if (first < argc)
		serve_usage();

	cleanup_announce_stops(); /* a stop kills the handlers, says so and exits 128 + signal */
	struct net_server s;
	net_server_init(&s);
	s.idle_s = idle;
	s.verbose = verbose;
	char err[256];
	const int svcs[] = { NS_TCP, NS_UDP, NS_CONNECT, NS_BWTCP,
#ifdef HAVE_TIRPC
		NS_RPC,
#endif
		NS_HTTP, NS_BWUDP };
	/* Bind everything first: a port in use is reported before anything runs. */
	for (size_t k = 0; k < sizeof svcs / sizeof svcs[0]; k++) {
		int i = svcs[k];
		int dgram = i == NS_UDP || i == NS_BWUDP;
		int port = net_port(i, base);
		s.fd[i] = net_listen_on(bind_addr, port, dgram ? SOCK_DGRAM : SOCK_STREAM, err, sizeof err);
		if (s.fd[i] >= 0 && i == NS_RPC)
			s.rpc_udp_fd = net_listen_on(bind_addr, port, SOCK_DGRAM, err, sizeof err);
		if (s.fd[i] < 0 || (i == NS_RPC && s.rpc_udp_fd < 0)) {
			net_server_close(&s);
			die(EXIT_MEASURE, "%s: %s", net_svc_name(i), err);
		}
		printf("plumb serve: %-7s %s %s port %d\n", net_svc_name(i), dgram ? "udp" : i == NS_RPC ? "tcp+udp" : "tcp",
		       bind_addr, port);
	}
	if (idle)
		printf("plumb serve: exits after %d seconds without a client\n", idle);
	fflush(stdout);
	return net_serve(&s);
}
