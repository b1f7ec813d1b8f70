/*
 * net_handlers.c — what the server's processes do with a client (net_server.c forks them): the
 * per-connection handlers of lat_tcp, bw_tcp and lat_http, the blocking lat_udp echo and bw_udp
 * sink services, and the request parsers they share with the fuzzer (fuzz/fuzz_serve.c).
 *
 * Each handler runs in a process of its own and records the time of every request it serves in
 * the server's shared activity word, which the master reads for --idle. Nothing here calls the
 * master or the client side.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "core/util.h"

#define STOP_STATUS NET_STOP_STATUS

/* A request served: the master's idle clock starts again. */
static void touch(const struct net_server *s)
{
	if (s->activity)
		*s->activity = net_now_ms();
}

/* The request parsers, apart from the sockets so they can be fuzzed (fuzz/fuzz_serve.c).
 * bw_tcp: decimal digits only (the newline already stripped); 0 on success. */
int net_parse_bw_request(const char *line, size_t n, unsigned long *msize)
{
	unsigned long v = 0;
	if (n == 0 || n > 20)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (line[i] < '0' || line[i] > '9')
			return -1;
		if (v > (ULONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (unsigned long)(line[i] - '0');
	}
	*msize = v;
	return 0;
}

/* HTTP/1.0: "EXIT" or "GET /path ..." within the first n bytes of req (not NUL-terminated). */
int net_parse_http_request(const char *req, size_t n, char *path, size_t pathlen)
{
	if (n >= 4 && memcmp(req, "EXIT", 4) == 0)
		return HTTP_REQ_EXIT;
	if (n < 5 || memcmp(req, "GET ", 4) != 0 || pathlen == 0)
		return HTTP_REQ_BAD;
	size_t i = 4, o = 0;
	while (i < n && req[i] == ' ')
		i++;
	while (i < n && req[i] != ' ' && req[i] != '\r' && req[i] != '\n' && req[i] != 0) {
		if (o + 1 >= pathlen)
			return HTTP_REQ_BAD;
		path[o++] = req[i++];
	}
	path[o] = 0;
	return o ? HTTP_REQ_GET : HTTP_REQ_BAD;
}

/* lat_tcp: a 4-byte message size (network order; 0 = stop), then echo messages of that size. */
static int handle_tcp(int fd, const struct net_server *s)
{
	uint32_t hdr;
	net_nodelay(fd);
	if (read_in_full(fd, &hdr, 4) < 0)
		return 0;
	uint32_t msize = ntohl(hdr);
	if (msize == 0)
		return s->allow_stop ? STOP_STATUS : 0;
	if (msize > NET_MAX_MSG)
		return 0;
	char *buf = xmalloc(msize);
	while (read_in_full(fd, buf, msize) == 0 && write_in_full(fd, buf, msize) == 0)
		touch(s);
	free(buf);
	return 0;
}

/* bw_tcp: the message size as decimal text ending in a newline (0 = stop), then an endless
 * stream of writes of that size until the client goes away. */
static int handle_bwtcp(int fd, const struct net_server *s)
{
	char line[32];
	size_t n = 0;
	while (n < sizeof line - 1) {
		ssize_t r = read(fd, line + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		if (line[n] == '\n')
			break;
		n++;
	}
	unsigned long msize;
	if (net_parse_bw_request(line, n, &msize) != 0)
		return 0;
	if (msize == 0)
		return s->allow_stop ? STOP_STATUS : 0;
	if (msize > NET_MAX_MSG)
		return 0;
	int sb = 1 << 20;   /* lmbench's 1 MiB socket buffer */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sb, sizeof sb);
	char *buf = xmalloc(msize);
	memset(buf, 'p', msize);
	for (unsigned i = 1; write_in_full(fd, buf, msize) == 0; i++)
		if ((i & 255) == 0)
			touch(s);
	free(buf);
	return 0;
}

/* HTTP/1.0: read the request line, answer from the generated pages, close. */
static int handle_http(int fd, const struct net_server *s)
{
	char req[2048];
	size_t n = 0;
	while (n < sizeof req - 1 && !memchr(req, '\n', n)) {
		ssize_t r = read(fd, req + n, sizeof req - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		n += (size_t)r;
	}
	char path[256] = "";
	const char *body = NULL;
	size_t blen = 0;
	int code = 400;
	int kind = net_parse_http_request(req, n, path, sizeof path);
	if (kind == HTTP_REQ_EXIT)
		return s->allow_stop ? STOP_STATUS : 0;
	if (kind == HTTP_REQ_GET) {
		body = net_http_page(path, &blen);
		code = body ? 200 : 404;
	}
	char head[256];
	int hl = snprintf(head, sizeof head,
			  "HTTP/1.0 %d %s\r\nServer: plumb\r\nContent-Type: text/html\r\n"
			  "Content-Length: %zu\r\n\r\n",
			  code, code == 200 ? "OK" : code == 404 ? "Not Found" : "Bad Request",
			  body ? blen : 0);
	if (write_in_full(fd, head, (size_t)hl) == 0 && body)
		write_in_full(fd, body, blen);
	touch(s);
	/* Close politely: unread request bytes would turn our close into a reset that can
	 * destroy the response before the client reads it. */
	shutdown(fd, SHUT_WR);
	while (read(fd, req, sizeof req) > 0)
		;
	return 0;
}

/* lat_udp: echo datagrams whose first 4 bytes are a sequence number; negative = stop. */
static int serve_udp(int fd, const struct net_server *s)
{
	static char buf[65536];
	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (n < 4)
			continue;
		int32_t seq;
		memcpy(&seq, buf, 4);
		if ((int32_t)ntohl((uint32_t)seq) < 0) {
			if (s->allow_stop)
				return STOP_STATUS;
			continue;
		}
		sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
		touch(s);
	}
}

/* bw_udp sink: counts the bytes of each batch; answers a sync with the count (bw_udp.c). */
static int serve_bwudp(int fd, const struct net_server *s)
{
	static char buf[65536];
	int big = 4 << 20;
	/* Room for a whole batch; SO_RCVBUFFORCE passes rmem_max when privileged. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	uint32_t cur = 0, bytes = 0;
	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		struct bwudp_hdr h;
		if ((size_t)n < sizeof h)
			continue;
		memcpy(&h, buf, sizeof h);
		if (ntohl(h.magic) != BWUDP_MAGIC)
			continue;
		uint32_t kind = ntohl(h.kind), batch = ntohl(h.batch);
		if (kind == BWUDP_DATA) {
			if (batch != cur) {
				cur = batch;
				bytes = 0;
			}
			bytes += (uint32_t)n;
			continue;
		}
		if (kind == BWUDP_STOP) {
			if (s->allow_stop)
				return STOP_STATUS;
			continue;
		}
		uint32_t v = 0;
		if (kind == BWUDP_SYNC)
			v = batch == cur ? bytes : 0;
		else if (kind == BWUDP_HELLO) {
			int rb = 0;
			socklen_t rl = sizeof rb;
			getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rb, &rl);
			v = (uint32_t)rb;
		} else
			continue;
		struct bwudp_hdr r = { htonl(BWUDP_MAGIC), htonl(kind), htonl(batch), htonl(v) };
		sendto(fd, &r, sizeof r, 0, (struct sockaddr *)&from, fl);
		touch(s);
	}
}


int net_handle_conn(int svc, int fd, const struct net_server *s)
{
	return svc == NS_TCP ? handle_tcp(fd, s) : svc == NS_BWTCP ? handle_bwtcp(fd, s) : handle_http(fd, s);
}

int net_run_service(int svc, const struct net_server *s)
{
	if (svc == NS_UDP)
		return serve_udp(s->fd[NS_UDP], s);
	if (svc == NS_BWUDP)
		return serve_bwudp(s->fd[NS_BWUDP], s);
	if (svc == NS_RPC)
		return net_rpc_serve(s->fd[NS_RPC], s->rpc_udp_fd, s->allow_stop, s->activity);
	return 1;
}
