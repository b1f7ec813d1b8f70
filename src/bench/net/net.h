/*
 * net.h — what every network benchmark shares: the service ports, address resolution, socket
 * helpers, and the one server engine behind all three ways a server end runs:
 *
 *   (a) lmbench's way: `lat_tcp -s` detaches a background server on lmbench's fixed port
 *       (loopback only), which exits after NET_DAEMON_IDLE_S seconds without a client or when
 *       `lat_tcp -S HOST` asks it to stop;
 *   (b) a tool given no host (and the suite) forks its own server as a child on an ephemeral
 *       127.0.0.1 port in the benchmark's setup, and kills it in teardown, so runs can overlap;
 *   (c) `plumb serve` runs every service at once on lmbench's ports or from a base port, for
 *       clients on other hosts (src/cmd/serve.c). It ignores stop requests.
 *
 * The engine (net_serve) is one master process polling the TCP listeners; TCP latency, bw_tcp
 * and HTTP connections each get a forked handler (capped in number, with read/write timeouts so
 * a silent or slow client cannot hold one forever); UDP echo, bw_udp and RPC run in their own
 * processes. Nothing a client sends is ever executed or used as a path: requests are sizes and
 * page names looked up in a fixed table.
 */
#ifndef PLUMB_NET_H
#define PLUMB_NET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include "core/clock.h"
#include "core/out.h"
#include "core/opts.h"

/* Milliseconds on the monotonic clock: the server's activity and idle times (not time():
 * whole seconds cut --idle short, and the wall clock jumps). */
static inline long net_now_ms(void)
{
	return (long)(now_ns() / 1000000u);
}

enum net_svc {
	NS_TCP,        /* lat_tcp echo */
	NS_UDP,        /* lat_udp echo */
	NS_CONNECT,    /* lat_connect: accept and close */
	NS_BWTCP,      /* bw_tcp: stream msize writes */
	NS_RPC,        /* lat_rpc: Sun RPC, TCP and UDP on the same port number */
	NS_HTTP,       /* lat_http: plumb's generated pages */
	NS_BWUDP,      /* bw_udp sink */
	NS_UNIX,       /* lat_unix_connect: accept and close on an AF_UNIX path */
	NS_COUNT
};

/* Seconds a lmbench-style (-s) server waits for a client before it exits by itself. */
#define NET_DAEMON_IDLE_S 600
/* Largest message any service accepts (lmbench's 10 MiB). */
#define NET_MAX_MSG (10u << 20)
/* Handler read/write timeout: a client silent this long is dropped. */
#define NET_CONN_TIMEOUT_S 30
/* Connections served at once per server (more are accepted and closed at once). */
#define NET_MAX_CONNS 64
/* Sun RPC program and version (lmbench's XACT_PROG). */
#define NET_RPC_PROG 404040
#define NET_RPC_VERS 1
/* Exit status of a server process that honoured a stop request. */
#define NET_STOP_STATUS 42

/* The port of a service: BASE + offset when base > 0, else lmbench's port. */
int net_port(enum net_svc s, int base);
const char *net_svc_name(enum net_svc s);

/* The suite's --remote HOST[:BASE] ("[v6addr]:BASE" for IPv6), parsed into a tool's context
 * (tool_ctx.remote_host, remote_base): tools given no host then measure against that host (a
 * `plumb serve`) instead of starting their own servers. 0, or -1 when the spec is malformed
 * (host_out then empty). NULL or "" gives an empty host and base 0. */
int net_remote_parse(const char *spec, char *host_out, size_t host_size, int *base_out);

/* Resolve host:port for socktype (SOCK_STREAM/SOCK_DGRAM). 0 or -1 (message in err). */
int net_resolve(const char *host, int port, int socktype, int passive,
		struct sockaddr_storage *ss, socklen_t *len, char *err, size_t errlen);
/* A socket bound to addr (SO_REUSEADDR), listening when stream. -1 with errno. */
int net_bind(const struct sockaddr_storage *ss, socklen_t len, int socktype);
/* Bound + listening socket on host:port (port 0 = ephemeral). -1, message in err. */
int net_listen_on(const char *host, int port, int socktype, char *err, size_t errlen);
int net_local_port(int fd);
/* TCP connect to ss; retries briefly on ECONNREFUSED (a server still starting). -1/errno. */
int net_connect(const struct sockaddr_storage *ss, socklen_t len);
void net_nodelay(int fd);
void net_timeouts(int fd, int seconds);
/* Whole-buffer reads and writes: read_in_full() / write_in_full() in core/util.h. */

/* bw_udp's datagram header (network order). The client sends batches of DATA datagrams, then a
 * SYNC that the sink answers with the bytes it received of that batch; HELLO asks for the sink's
 * receive buffer size (so batches fit in it); STOP ends a -s sink. */
struct bwudp_hdr { uint32_t magic, kind, batch, bytes; };
#define BWUDP_MAGIC 0x504c4257u  /* "PLBW" */
enum { BWUDP_DATA, BWUDP_SYNC, BWUDP_STOP, BWUDP_HELLO };

/* ---- the server engine ---------------------------------------------------------------- */
struct net_server {
	int fd[NS_COUNT];   /* bound socket per service, -1 = not served (RPC: the TCP one) */
	int rpc_udp_fd;     /* NS_RPC's UDP socket */
	int idle_s;         /* exit after this long without a client (0 = never) */
	int allow_stop;     /* honour stop requests (-S); plumb serve does not */
	int max_conns;
	int conn_timeout_s;
	struct timing_ctx *helper_of; /* pin as helper 1 of this measurement (mode b); NULL: not */
	int verbose;        /* log connections to stderr (plumb serve -v) */
	volatile long *activity; /* shared by its processes: net_now_ms() of the last request */
};
void net_server_init(struct net_server *s);
/* Run until stopped or idle; returns the exit status (0). Closes the sockets. */
int net_serve(struct net_server *s);
/* In a handler process (net_handlers.c): serve one TCP, bw_tcp or HTTP connection (svc), or
 * run the blocking UDP, bw_udp or RPC service on s's socket; the process's exit status. */
int net_handle_conn(int svc, int fd, const struct net_server *s);
int net_run_service(int svc, const struct net_server *s);
/* Mode (b): fork the server as a child of this process; -1 on failure. */
pid_t net_server_child(struct net_server *s);
/* Stop and reap a child started by net_server_child. */
void net_server_child_stop(pid_t pid);
/* Mode (a): detach the server (setsid, stdio on /dev/null, no inherited fds) and return at
 * once in the caller; 0 or -1. */
int net_server_daemon(struct net_server *s);
/* Close every server socket in s (the caller keeps none after forking). */
void net_server_close(struct net_server *s);

/* Ask a lmbench-style server of svc at host:port to stop. 0 when the request was sent. */
int net_send_stop(enum net_svc svc, const char *host, int port);
/* Wait (up to 3 s) until the server of svc at ss stops answering. */
void net_wait_gone(enum net_svc svc, const struct sockaddr_storage *ss, socklen_t len);

/* ---- the client side shared by the tools ---------------------------------------------- */
struct net_client {
	enum net_svc svc;
	const char *host;   /* as given (printed in "using HOST"); NULL = start our own server */
	int port;           /* explicit port (-p), 0 = from base or lmbench's */
	int base;           /* -b BASE: a `plumb serve --port BASE` */
	/* filled by net_client_setup */
	struct sockaddr_storage ss;
	socklen_t sslen;
	pid_t child;        /* our own server (mode b), 0 when remote */
	struct timing_ctx *timing; /* the tool's (net_client_prepare): where our server goes */
};
/* The "host" parameter a result carries: the host given, or "localhost" for our own server. */
const char *net_client_hostname(const struct net_client *nc);
/* Set host/port from the operands and remote setting; call before measure(). */
void net_client_prepare(struct tool_ctx *c, struct net_client *nc, const char *host);
/* From a benchmark's setup(): start our own server when there is no host (pinned as helper 1)
 * and resolve the address to use. 0, or -1 after a message. */
int net_client_setup(struct net_client *nc, int socktype);
/* The UDP tools' setup (lat_udp, bw_udp): net_client_setup(), then a datagram socket connected
 * to the server with net_timeouts(); the socket, or -1 after a message. */
int net_udp_client(struct net_client *nc);
void net_client_teardown(struct net_client *nc);
/* Handle -s / -S for a tool: start a detached server on the fixed port, or ask one to stop.
 * Returns the tool's exit status. */
int net_tool_start(struct tool_ctx *c, enum net_svc svc, int port);
int net_tool_stop(struct tool_ctx *c, enum net_svc svc, const char *host, int port);
/* The options the client tools share, as rows of their option tables (opts.h): -s, -S,
 * -p PORT, -b BASE, -m SIZE (in each tool's range), -M BYTES; then at most one HOST operand. */
struct netopts {
	int start, stop, port, base;
	uint64_t msize, move;     /* 0 until given (-m and -M take no 0) */
	int msize_given, move_given;
	const char *port_arg;
	const char *host;
};
/* The client tools' option rows, declared once (core/opts.h). */
#define NET_OPT_START OPT_BOOL('s', NULL, struct netopts, start, \
	"start lmbench's background server on 127.0.0.1 and return")
#define NET_OPT_STOP OPT_BOOL('S', NULL, struct netopts, stop, "stop the server on HOST")
#define NET_OPT_PORT OPT_STRING('p', NULL, struct netopts, port_arg, "PORT", \
	"the server's port instead of lmbench's")
#define NET_OPT_BASE OPT_INT('b', NULL, struct netopts, base, "BASE", 1, 65535 - NS_COUNT, \
	"plumb serve base port", "talk to `plumb serve --port BASE`")
#define NET_OPT_MSIZE(lo, hi, help) OPT_SIZE('m', NULL, struct netopts, msize, "SIZE", lo, hi, \
	"message size", help)
#define NET_OPT_MOVE OPT_SIZE('M', NULL, struct netopts, move, "MOVE", 1, 1 << 30, \
	"bytes moved per operation", "bytes moved per operation")
/* The synopsis of a client tool; mid is its own options ("[-m SIZE] "). */
#define NET_SYNOPSIS(mid) "-s [-p PORT] | " mid "[-p PORT|-b BASE] [HOST] | -S HOST"
/* Parse argv against the client tool's table (its descriptor's), then check -p, the operands and
 * -s/-S; msize/move not given get the defaults passed. Bad input exits 2. */
void net_parse_opts(struct tool_ctx *c, int argc, char **argv, struct netopts *o,
		    uint64_t def_msize, uint64_t def_move);
/* "host=NAME" (plus "msize=N" when -m was given), malloc'd. */
char *net_host_params(const struct net_client *nc, const struct netopts *o);
/* Parse -p / -b values (exit 2 on bad input). */
int net_parse_port(struct tool_ctx *c, const char *s, const char *what);

/* Read exactly move bytes from fd in reads of at most chunk (the bandwidth tools' timed
 * operation); exit 3 naming what when the sender is gone. */
void net_read_move(int fd, char *buf, size_t chunk, uint64_t move, const char *what);

/* ---- HTTP pages (lat_http.c), served by the engine ------------------------------------ */
/* The generated page for path ("/index.html"), or NULL. */
const char *net_http_page(const char *path, size_t *len);
/* The built-in URL list lat_http uses when given none. */
extern const char *const net_http_urls[];

/* ---- RPC server (lat_rpc.c); returns when stopped; exit status ------------------------- */
/* Request parsing of the servers (pure functions, fuzzed). */
enum { HTTP_REQ_BAD, HTTP_REQ_GET, HTTP_REQ_EXIT };
int net_parse_http_request(const char *req, size_t n, char *path, size_t pathlen);
int net_parse_bw_request(const char *line, size_t n, unsigned long *msize);
int net_rpc_serve(int tcp_fd, int udp_fd, int allow_stop, volatile long *activity);

#endif
