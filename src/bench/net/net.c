/*
 * net.c — what the network tools share (net.h): the suite's --remote setting, address
 * resolution and socket helpers, stop requests, and the client side (own server or remote
 * host, -s/-S). The server engine is in net_server.c, below this file; the services' names
 * and ports and the socket options both ends set are in net_sock.c, below both.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "core/cleanup.h"
#include "core/opts.h"
#include "core/util.h"

/* ---- the suite's remote setting ----------------------------------------------------------- */

int net_remote_parse(const char *spec, char *host_out, size_t host_size, int *base_out)
{
	host_out[0] = 0;
	*base_out = 0;
	if (!spec || !*spec)
		return 0;
	char buf[300];
	if (strlen(spec) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", spec);
	char *host = buf, *port = NULL;
	if (buf[0] == '[') {            /* [v6]:BASE */
		char *e = strchr(buf, ']');
		if (!e)
			return -1;
		*e = 0;
		host = buf + 1;
		if (e[1] == ':')
			port = e + 2;
		else if (e[1])
			return -1;
	} else {
		char *c = strchr(buf, ':');
		if (c && strchr(c + 1, ':'))
			c = NULL;               /* a bare IPv6 address: no base */
		if (c) {
			*c = 0;
			port = c + 1;
		}
	}
	if (!*host || strlen(host) >= host_size)
		return -1;
	int base = 0;
	if (port) {
		char *end;
		long b = strtol(port, &end, 10);
		if (!*port || *end || b < 1 || b > 65535 - NS_COUNT)
			return -1;
		base = (int)b;
	}
	snprintf(host_out, host_size, "%s", host);
	*base_out = base;
	return 0;
}

/* ---- sockets ------------------------------------------------------------------------------ */

int net_resolve(const char *host, int port, int socktype, int passive,
		struct sockaddr_storage *ss, socklen_t *len, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = socktype,
				  .ai_flags = passive ? AI_PASSIVE | AI_NUMERICHOST : 0 }, *ai;
	char ps[16];
	snprintf(ps, sizeof ps, "%d", port);
	int e = getaddrinfo(host, ps, &hints, &ai);
	if (e) {
		snprintf(err, errlen, "%s: %s", host, gai_strerror(e));
		return -1;
	}
	/* Prefer IPv4 when a name has both (loopback "localhost" does): lmbench was IPv4. */
	struct addrinfo *pick = ai;
	for (struct addrinfo *a = ai; a; a = a->ai_next)
		if (a->ai_family == AF_INET) {
			pick = a;
			break;
		}
	memcpy(ss, pick->ai_addr, pick->ai_addrlen);
	*len = pick->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

int net_bind(const struct sockaddr_storage *ss, socklen_t len, int socktype)
{
	int fd = socket(ss->ss_family, socktype | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	if (ss->ss_family != AF_UNIX)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (const struct sockaddr *)ss, len) < 0 ||
	    (socktype == SOCK_STREAM && listen(fd, 1024) < 0)) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int net_listen_on(const char *host, int port, int socktype, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	if (net_resolve(host, port, socktype, 1, &ss, &len, err, errlen) < 0)
		return -1;
	int fd = net_bind(&ss, len, socktype);
	if (fd < 0)
		snprintf(err, errlen, "cannot bind %s port %d (%s): %s", host, port,
			 socktype == SOCK_STREAM ? "tcp" : "udp", strerror(errno));
	return fd;
}

int net_local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return -1;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return -1;
}

int net_connect(const struct sockaddr_storage *ss, socklen_t len)
{
	for (int tries = 0;; tries++) {
		int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (const struct sockaddr *)ss, len) == 0)
			return fd;
		int e = errno;
		close(fd);
		if ((e != ECONNREFUSED && e != EAGAIN && e != EINTR) || tries >= 20) {
			errno = e;
			return -1;
		}
		usleep(50000);
	}
}

/* ---- stop requests --------------------------------------------------------------------------- */

/* After a stop request: wait (up to 3 s) until the server no longer answers, so that a new
 * -s right after -S finds the port free. A stream server is gone when a connection is refused;
 * a datagram one when a probe comes back as "port unreachable". */
void net_wait_gone(enum net_svc svc, const struct sockaddr_storage *ss, socklen_t len)
{
	int dgram = svc == NS_UDP || svc == NS_BWUDP;
	for (int i = 0; i < 150; i++) {
		int fd = socket(ss->ss_family, (dgram ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return;
		int gone = 0;
		if (connect(fd, (const struct sockaddr *)ss, len) < 0) {
			gone = errno == ECONNREFUSED || errno == ENOENT;
		} else if (dgram) {
			/* A harmless probe: a too-short datagram both services ignore. */
			char c = 0;
			struct timeval tv = { 0, 20000 };
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
			if (send(fd, &c, 1, 0) < 0 || recv(fd, &c, 1, 0) < 0)
				gone = errno == ECONNREFUSED;
		}
		close(fd);
		if (gone)
			return;
		usleep(20000);
	}
}

int net_send_stop(enum net_svc svc, const char *host, int port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char err[256];
	int dgram = svc == NS_UDP || svc == NS_BWUDP;
	if (svc == NS_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;
		memset(&ss, 0, sizeof ss);
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof un->sun_path, "%s", host);
		len = sizeof *un;
	} else if (net_resolve(host, port, dgram ? SOCK_DGRAM : SOCK_STREAM, 0, &ss, &len, err,
			       sizeof err) < 0) {
		warnx_("%s", err);
		return -1;
	}
	if (dgram) {
		int fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		char msg[16] = { 0 };
		if (svc == NS_UDP) {
			uint32_t neg = htonl((uint32_t)-1);
			memcpy(msg, &neg, 4);
		} else {
			struct bwudp_hdr h = { htonl(BWUDP_MAGIC), htonl(BWUDP_STOP), 0, 0 };
			memcpy(msg, &h, sizeof h);
		}
		/* Several copies, as lmbench sends: a datagram may be lost. */
		int ok = 0;
		for (int i = 0; i < 4; i++)
			ok |= sendto(fd, msg, svc == NS_UDP ? 4 : sizeof msg, 0, (struct sockaddr *)&ss, len) > 0;
		close(fd);
		if (ok)
			net_wait_gone(svc, &ss, len);
		return ok ? 0 : -1;
	}
	int fd = svc == NS_UNIX ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)
				: socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&ss, len) < 0) {
		warnx_("cannot reach the %s server at %s: %s", net_svc_name(svc), host, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = 0;
	if (svc == NS_TCP) {
		uint32_t z = 0;
		rc = write_in_full(fd, &z, 4);
	} else if (svc == NS_BWTCP) {
		rc = write_in_full(fd, "0\n", 2);
	} else if (svc == NS_HTTP) {
		rc = write_in_full(fd, "EXIT\r\n", 6);
	} else {
		rc = write_in_full(fd, "S", 1);
	}
	/* Wait for the server to close its end, so a following -s finds the port free. */
	shutdown(fd, SHUT_WR);
	net_timeouts(fd, 2);
	char c;
	while (read(fd, &c, 1) > 0)
		;
	close(fd);
	if (rc == 0)
		net_wait_gone(svc, &ss, len);
	return rc;
}

/* ---- client side ------------------------------------------------------------------------------ */

void net_parse_opts(struct tool_ctx *c, int argc, char **argv, struct netopts *o,
		    uint64_t def_msize, uint64_t def_move)
{
	memset(o, 0, sizeof *o);
	struct operands args = options_parse(c, argc, argv, o);
	if (o->port_arg)
		o->port = net_parse_port(c, o->port_arg, "-p");
	o->msize_given = o->msize != 0;
	o->move_given = o->move != 0;
	if (!o->msize_given)
		o->msize = def_msize;
	if (!o->move_given)
		o->move = def_move;
	if (args.n > 1)
		usage_error(c, "too many operands (one HOST at most)");
	o->host = args.n > 0 ? args.v[0] : NULL;
	if (o->start && o->stop)
		usage_error(c, "-s and -S exclude each other");
	if (o->start && o->host)
		usage_error(c, "-s takes no HOST (the server listens on 127.0.0.1)");
	if (o->stop && !o->host)
		usage_error(c, "-S needs the HOST whose server to stop");
}

char *net_host_params(const struct net_client *nc, const struct netopts *o)
{
	if (o->msize_given)
		return xasprintf("host=%s msize=%llu", net_client_hostname(nc), (unsigned long long)o->msize);
	return xasprintf("host=%s", net_client_hostname(nc));
}


int net_parse_port(struct tool_ctx *c, const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 1 || v > 65535)
		usage_error(c, "%s: '%s' is not a port number (1-65535)", what, s);
	return (int)v;
}

const char *net_client_hostname(const struct net_client *nc)
{
	return nc->host ? nc->host : "localhost";
}

void net_client_prepare(struct tool_ctx *c, struct net_client *nc, const char *host)
{
	nc->host = host;
	nc->timing = &c->timing;
	if (!host && c->remote_host[0]) {
		nc->host = c->remote_host;
		if (!nc->base)
			nc->base = c->remote_base;
	}
}

/* Our own server on an ephemeral loopback port (mode b). */
static int start_own(struct net_client *nc, int socktype)
{
	struct net_server s;
	char err[256];
	net_server_init(&s);
	s.helper_of = nc->timing;
	if (nc->svc == NS_UNIX) {
		char *dir = private_dir(NULL);
		if (!dir) {
			warnx_("cannot create a private directory: %s", strerror(errno));
			return -1;
		}
		struct sockaddr_un *un = (struct sockaddr_un *)&nc->ss;
		memset(&nc->ss, 0, sizeof nc->ss);
		un->sun_family = AF_UNIX;
		if ((size_t)snprintf(un->sun_path, sizeof un->sun_path, "%s/sock", dir) >= sizeof un->sun_path) {
			warnx_("socket path under %s is too long", dir);
			return -1;
		}
		free(dir);
		nc->sslen = sizeof *un;
		s.fd[NS_UNIX] = net_bind(&nc->ss, nc->sslen, SOCK_STREAM);
		if (s.fd[NS_UNIX] < 0) {
			warnx_("cannot bind %s: %s", un->sun_path, strerror(errno));
			return -1;
		}
	} else if (nc->svc == NS_RPC) {
		/* TCP and UDP on one port number: retry when the UDP port is taken. */
		for (int t = 0; t < 20 && s.rpc_udp_fd < 0; t++) {
			if (s.fd[NS_RPC] >= 0)
				close(s.fd[NS_RPC]);
			s.fd[NS_RPC] = net_listen_on("127.0.0.1", 0, SOCK_STREAM, err, sizeof err);
			if (s.fd[NS_RPC] < 0)
				break;
			s.rpc_udp_fd = net_listen_on("127.0.0.1", net_local_port(s.fd[NS_RPC]), SOCK_DGRAM, err, sizeof err);
		}
		if (s.rpc_udp_fd < 0) {
			warnx_("%s", err);
			net_server_close(&s);
			return -1;
		}
	} else {
		s.fd[nc->svc] = net_listen_on("127.0.0.1", 0, socktype, err, sizeof err);
		if (s.fd[nc->svc] < 0) {
			warnx_("%s", err);
			return -1;
		}
	}
	if (nc->svc != NS_UNIX) {
		int port = net_local_port(s.fd[nc->svc]);
		if (net_resolve("127.0.0.1", port, socktype, 0, &nc->ss, &nc->sslen, err, sizeof err) < 0) {
			warnx_("%s", err);
			net_server_close(&s);
			return -1;
		}
	}
	nc->child = net_server_child(&s);
	net_server_close(&s);
	if (nc->child < 0) {
		warnx_("fork: %s", strerror(errno));
		nc->child = 0;
		return -1;
	}
	return 0;
}

int net_client_setup(struct net_client *nc, int socktype)
{
	if (!nc->host)
		return start_own(nc, socktype);
	char err[256];
	if (nc->svc == NS_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)&nc->ss;
		memset(&nc->ss, 0, sizeof nc->ss);
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof un->sun_path, "%s", nc->host);
		nc->sslen = sizeof *un;
		return 0;
	}
	int port = nc->port ? nc->port : net_port(nc->svc, nc->base);
	if (net_resolve(nc->host, port, socktype, 0, &nc->ss, &nc->sslen, err, sizeof err) < 0) {
		warnx_("%s", err);
		return -1;
	}
	return 0;
}

int net_udp_client(struct net_client *nc)
{
	if (net_client_setup(nc, SOCK_DGRAM) < 0)
		return -1;
	int fd = socket(nc->ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&nc->ss, nc->sslen) < 0) {
		warnx_("udp socket to %s: %s", net_client_hostname(nc), strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	net_timeouts(fd, 1);
	return fd;
}

void net_client_teardown(struct net_client *nc)
{
	if (nc->child > 0)
		net_server_child_stop(nc->child);
	nc->child = 0;
}

int net_tool_start(struct tool_ctx *c, enum net_svc svc, int port)
{
	struct net_server s;
	char err[256];
	net_server_init(&s);
	if (!port)
		port = net_port(svc, 0);
	/* lmbench's servers listened on every interface; plumb's listen on loopback only
	 * (use `plumb serve --bind ADDR` to serve other hosts). */
	int dgram = svc == NS_UDP || svc == NS_BWUDP;
	s.fd[svc] = net_listen_on("127.0.0.1", port, dgram ? SOCK_DGRAM : SOCK_STREAM, err, sizeof err);
	if (s.fd[svc] >= 0 && svc == NS_RPC)
		s.rpc_udp_fd = net_listen_on("127.0.0.1", port, SOCK_DGRAM, err, sizeof err);
	if (s.fd[svc] < 0 || (svc == NS_RPC && s.rpc_udp_fd < 0)) {
		net_server_close(&s);
		die(EXIT_MEASURE, "%s (is a server already running? stop it with %s -S 127.0.0.1)",
		    err, c->tool);
	}
	if (net_server_daemon(&s) < 0)
		die(EXIT_MEASURE, "cannot start the background server: %s", strerror(errno));
	return 0;
}

int net_tool_stop(struct tool_ctx *c, enum net_svc svc, const char *host, int port)
{
	(void)c;
	if (!port)
		port = net_port(svc, 0);
	return net_send_stop(svc, host, port) == 0 ? 0 : EXIT_MEASURE;
}

/* Read exactly `move` bytes in reads of at most `chunk`; dies when the sender is gone. */
void net_read_move(int fd, char *buf, size_t chunk, uint64_t move, const char *what)
{
	while (move) {
		size_t want = move < chunk ? (size_t)move : chunk;
		ssize_t r = read(fd, buf, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die(EXIT_MEASURE, "%s: the sender stopped: %s", what, r ? strerror(errno) : "end of file");
		move -= (uint64_t)r;
	}
}
