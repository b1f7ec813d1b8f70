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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "bench/net.h"
#include "cmd/commands.h"
#include "core/util.h"

static void serve_usage(void)
{
	fprintf(stderr, "plumb serve: usage: plumb serve [--bind ADDR] [--port BASE] [--idle SECONDS] [-v]\n");
	exit(EXIT_USAGE);
}

int cmd_serve(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "bind", required_argument, NULL, 'B' },
		{ "port", required_argument, NULL, 'p' },
		{ "idle", required_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bind_addr = "127.0.0.1";
	int base = 0, idle = 0, verbose = 0, ch;
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:v", lo, NULL)) != -1) {
		switch (ch) {
		case 'B': bind_addr = optarg; break;
		case 'p': base = (int)parse_int(optarg, 1, 65535 - NS_COUNT, "--port (base port)"); break;
		case 'i': idle = (int)parse_int(optarg, 1, 100000000, "--idle (seconds)"); break;
		case 'v': verbose = 1; break;
		default: serve_usage();
		}
	}
	if (optind < argc)
		serve_usage();

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
