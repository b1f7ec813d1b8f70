/*
 * net_server.c — the server engine behind every network benchmark's server end (net.h): the
 * per-connection handlers, the blocking datagram and RPC services, the master loop, and the two
 * ways to start it from a tool (a child of the benchmark, or a detached lmbench-style daemon).
 *
 * The master process polls the listening sockets. TCP latency, bw_tcp and HTTP connections wait
 * in the master until their first request arrives (a connection silent for PENDING_TIMEOUT_NS
 * is dropped, and the oldest silent one makes room when the pool is full: idle connections
 * from anyone cannot take the handlers from a real client), then get a forked handler each (at
 * most max_conns at once; each with SO_RCVTIMEO/SO_SNDTIMEO so a silent, half-open or slow
 * client is dropped after conn_timeout_s); connect-test connections
 * are held in the master only until the client closes them (or the timeout passes). UDP echo,
 * the bw_udp sink and the RPC server run in processes of their own, since each blocks in its
 * own receive loop (a poll in the master would add a system call to every round trip it
 * serves). Every process records the time of its last request in a shared word, which the
 * master reads for --idle.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/timing.h"
#include "core/util.h"

#define STOP_STATUS NET_STOP_STATUS
#define MAX_HELD 256     /* connect-test connections held open at once */
#define MAX_PENDING 1024 /* connections waiting for their first request */
/* a connection that has not sent its first request this long after accept is dropped */
#define PENDING_TIMEOUT_NS 5000000000ull

/* ---- handlers (each in its own process) --------------------------------------------------- */

static volatile long *activity;   /* shared: time() of the last request any process served */

static void touch(void)
{
	if (activity)
		*activity = (long)time(NULL);
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
		touch();
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
			touch();
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
	touch();
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
		touch();
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
		touch();
	}
}

/* ---- the master ---------------------------------------------------------------------------- */

void net_server_init(struct net_server *s)
{
	memset(s, 0, sizeof *s);
	for (int i = 0; i < NS_COUNT; i++)
		s->fd[i] = -1;
	s->rpc_udp_fd = -1;
	s->max_conns = NET_MAX_CONNS;
	s->conn_timeout_s = NET_CONN_TIMEOUT_S;
}

void net_server_close(struct net_server *s)
{
	for (int i = 0; i < NS_COUNT; i++)
		if (s->fd[i] >= 0) {
			close(s->fd[i]);
			s->fd[i] = -1;
		}
	if (s->rpc_udp_fd >= 0) {
		close(s->rpc_udp_fd);
		s->rpc_udp_fd = -1;
	}
}

static int is_stream_svc(int i)
{
	return i == NS_TCP || i == NS_CONNECT || i == NS_BWTCP || i == NS_HTTP || i == NS_UNIX;
}

/* Fork a process that runs one of the blocking services; the master closes its sockets. */
static pid_t fork_service(struct net_server *s, int svc)
{
	pid_t pid = plumb_fork();
	if (pid != 0)
		return pid;
	int rc = 1;
	if (svc == NS_UDP)
		rc = serve_udp(s->fd[NS_UDP], s);
	else if (svc == NS_BWUDP)
		rc = serve_bwudp(s->fd[NS_BWUDP], s);
	else if (svc == NS_RPC)
		rc = net_rpc_serve(s->fd[NS_RPC], s->rpc_udp_fd, s->allow_stop, activity);
	cleanup_run();
	_exit(rc);
}

/* A connection accepted for a handler and waiting for its first request. */
struct pending {
	int fd, svc;
	int ready;          /* its first request is here: it gets the next free handler */
	int gone;           /* the client left before asking anything */
	uint64_t since;     /* accept time, ns */
};

static void pending_drop(struct pending *p, int *n, int k)
{
	close(p[k].fd);
	p[k] = p[--*n];
}

/* Room for one more: close the oldest connection that has not asked anything yet. 0: none. */
static int pending_evict(struct pending *p, int *n)
{
	int k = -1;
	for (int i = 0; i < *n; i++)
		if (!p[i].ready && (k < 0 || p[i].since < p[k].since))
			k = i;
	if (k < 0)
		return 0;
	pending_drop(p, n, k);
	return 1;
}

/* How many connections may wait for their first request: what the descriptor limit leaves
 * (raised to its hard limit first), at most MAX_PENDING. */
static int pending_capacity(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 64;
	rlim_t want = MAX_PENDING + MAX_HELD + 128;
	if (rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	long room = (long)rl.rlim_cur - MAX_HELD - 128;
	return room < 16 ? 16 : room > MAX_PENDING ? MAX_PENDING : (int)room;
}

static void log_(const struct net_server *s, const char *fmt, const char *a, int b)
{
	if (s->verbose) {
		fprintf(stderr, "plumb serve: ");
		fprintf(stderr, fmt, a, b);
		fputc('\n', stderr);
	}
}

int net_serve(struct net_server *s)
{
	if (s->helper_of)
		timing_place_helper(s->helper_of, 1);
	activity = mmap(NULL, sizeof *activity, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (activity == MAP_FAILED)
		activity = NULL;
	touch();
	long last = (long)time(NULL);

	pid_t svc_pid[NS_COUNT] = { 0 };
	const int forked[] = { NS_UDP, NS_BWUDP, NS_RPC };
	for (size_t k = 0; k < sizeof forked / sizeof forked[0]; k++) {
		int i = forked[k];
		if (s->fd[i] < 0 && !(i == NS_RPC && s->rpc_udp_fd >= 0))
			continue;
		svc_pid[i] = fork_service(s, i);
		if (svc_pid[i] < 0)
			svc_pid[i] = 0;
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
		if (i == NS_RPC && s->rpc_udp_fd >= 0) {
			close(s->rpc_udp_fd);
			s->rpc_udp_fd = -1;
		}
	}
	for (int i = 0; i < NS_COUNT; i++)
		if (s->fd[i] >= 0)
			fcntl(s->fd[i], F_SETFL, fcntl(s->fd[i], F_GETFL) | O_NONBLOCK);

	int held[MAX_HELD], nheld = 0, nhandlers = 0, stop = 0;
	long held_since[MAX_HELD];   /* accept time: a silent connection is dropped after the timeout */
	struct pending pend[MAX_PENDING];
	int npend = 0, pend_cap = pending_capacity();
	static struct pollfd pf[NS_COUNT + MAX_HELD + MAX_PENDING];
	int pf_svc[NS_COUNT], pf_pend[MAX_PENDING];
	while (!stop) {
		int np = 0;
		for (int i = 0; i < NS_COUNT; i++)
			if (s->fd[i] >= 0 && is_stream_svc(i)) {
				pf_svc[np] = i;
				pf[np++] = (struct pollfd){ .fd = s->fd[i], .events = POLLIN };
			}
		int nl = np;
		for (int k = 0; k < nheld; k++)
			pf[np++] = (struct pollfd){ .fd = held[k], .events = POLLIN };
		int nh = np, nw = 0;
		for (int k = 0; k < npend; k++)
			if (!pend[k].ready) {
				pf_pend[nw++] = k;
				pf[np++] = (struct pollfd){ .fd = pend[k].fd, .events = POLLIN };
			}
		int r = poll(pf, (nfds_t)np, 250);
		if (r < 0 && errno != EINTR)
			break;
		/* Held connect-test connections: done when the client closes (or sends a stop). */
		for (int k = nheld - 1; r > 0 && k >= 0; k--) {
			if (!pf[nl + k].revents)
				continue;
			char c = 0;
			ssize_t got = recv(held[k], &c, 1, MSG_DONTWAIT);
			if (got < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (got == 1 && c == 'S' && s->allow_stop)
				stop = 1;
			close(held[k]);
			nheld--;
			held[k] = held[nheld];
			held_since[k] = held_since[nheld];
		}
		long now = (long)time(NULL);
		for (int k = nheld - 1; k >= 0; k--)
			if (now - held_since[k] > s->conn_timeout_s) {
				close(held[k]);
				nheld--;
				held[k] = held[nheld];
				held_since[k] = held_since[nheld];
			}
		/* Connections waiting for their first request: ready when it came, gone when the
		 * client left. Marked first, removed after (the poll indexes must stay valid). */
		for (int w = 0; r > 0 && w < nw; w++) {
			struct pending *q = &pend[pf_pend[w]];
			if (!pf[nh + w].revents)
				continue;
			char c;
			ssize_t got = recv(q->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
			if (got > 0)
				q->ready = 1;
			else if (got == 0 || (errno != EAGAIN && errno != EINTR))
				q->gone = 1;
		}
		uint64_t tnow = now_ns();
		for (int k = npend - 1; k >= 0; k--) {
			uint64_t age = tnow - pend[k].since;
			if (pend[k].gone || (!pend[k].ready && age > PENDING_TIMEOUT_NS) ||
			    age > (uint64_t)s->conn_timeout_s * 1000000000ull)
				pending_drop(pend, &npend, k);
		}
		for (int p = 0; r > 0 && p < nl; p++) {
			if (!pf[p].revents)
				continue;
			int svc = pf_svc[p];
			for (int burst = 0; burst < 64; burst++) {
				int c = accept4(s->fd[svc], NULL, NULL, SOCK_CLOEXEC);
				if (c < 0 && (errno == EMFILE || errno == ENFILE) && pending_evict(pend, &npend))
					c = accept4(s->fd[svc], NULL, NULL, SOCK_CLOEXEC);
				if (c < 0)
					break;
				last = (long)time(NULL);
				if (svc == NS_CONNECT || svc == NS_UNIX) {
					if (nheld == MAX_HELD) { /* the oldest goes: a flood cannot lock new ones out */
						close(held[0]);
						nheld--;
						held[0] = held[nheld];
						held_since[0] = held_since[nheld];
					}
					fcntl(c, F_SETFL, O_NONBLOCK);
					held_since[nheld] = last;
					held[nheld++] = c;
					continue;
				}
				/* a handler only once the first request is here (idle connections cost
				 * one descriptor, never a handler); the pool full, the oldest idle one goes */
				if (npend == pend_cap && !pending_evict(pend, &npend)) {
					log_(s, "%s: too many connections waiting, refused one (%d)", net_svc_name(svc), npend);
					close(c);
					continue;
				}
				pend[npend++] = (struct pending){ .fd = c, .svc = svc, .since = now_ns() };
			}
		}
		/* Ready connections get handlers, oldest first. */
		while (nhandlers < s->max_conns) {
			int k = -1;
			for (int i = 0; i < npend; i++)
				if (pend[i].ready && (k < 0 || pend[i].since < pend[k].since))
					k = i;
			if (k < 0)
				break;
			int c = pend[k].fd, svc = pend[k].svc;
			pid_t pid = plumb_fork();
			if (pid == 0) {
				for (int i = 0; i < NS_COUNT; i++)
					if (s->fd[i] >= 0)
						close(s->fd[i]);
				for (int i = 0; i < nheld; i++)
					close(held[i]);
				for (int i = 0; i < npend; i++)
					if (i != k)
						close(pend[i].fd);
				net_timeouts(c, s->conn_timeout_s);
				int rc = svc == NS_TCP ? handle_tcp(c, s)
				       : svc == NS_BWTCP ? handle_bwtcp(c, s) : handle_http(c, s);
				close(c);
				cleanup_run();
				_exit(rc);
			}
			pending_drop(pend, &npend, k);
			if (pid < 0)
				break;
			nhandlers++;
		}
		/* Reap handlers and service processes. */
		int st;
		pid_t pid;
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			child_forget(pid);
			int is_svc = 0;
			for (int i = 0; i < NS_COUNT; i++)
				if (svc_pid[i] == pid) {
					svc_pid[i] = 0;
					is_svc = 1;
					log_(s, "%s service ended (%d)", net_svc_name(i), st);
				}
			if (!is_svc)
				nhandlers--;
			if (WIFEXITED(st) && WEXITSTATUS(st) == STOP_STATUS && s->allow_stop)
				stop = 1;
			last = (long)time(NULL);
		}
		if (s->idle_s > 0 && nhandlers == 0 && nheld == 0 && npend == 0) {
			long a = activity ? *activity : 0;
			now = (long)time(NULL);
			if (a > last)
				last = a;
			if (now - last >= s->idle_s) {
				log_(s, "idle for %s%d seconds: exiting", "", s->idle_s);
				stop = 1;
			}
		}
	}
	for (int k = 0; k < nheld; k++)
		close(held[k]);
	for (int k = 0; k < npend; k++)
		close(pend[k].fd);
	net_server_close(s);
	cleanup_run();
	return 0;
}

pid_t net_server_child(struct net_server *s)
{
	pid_t pid = plumb_fork();
	if (pid == 0) {
		int rc = net_serve(s);
		_exit(rc);
	}
	return pid;
}

void net_server_child_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	/* SIGTERM lets the server's cleanup kill its handlers; SIGKILL if it lingers. */
	kill(pid, SIGTERM);
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			child_forget(pid);
			return;
		}
		usleep(5000);
	}
	kill(pid, SIGKILL);
	child_wait(pid);
}

int net_server_daemon(struct net_server *s)
{
	pid_t mid = plumb_fork();
	if (mid < 0)
		return -1;
	if (mid == 0) {
		/* A new session and a second fork: no controlling terminal, not our child, and not
		 * killed with us (the parent-death signal is not inherited across fork). */
		setsid();
		pid_t g = fork();
		if (g != 0)
			_exit(g < 0);
		int nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
			dup2(nul, 2);
			if (nul > 2)
				close(nul);
		}
		/* Inherited descriptors (a caller's pipe, say) must not be held open. */
		for (int fd = 3; fd < 1024; fd++) {
			int keep = fd == s->rpc_udp_fd;
			for (int i = 0; i < NS_COUNT; i++)
				keep |= fd == s->fd[i];
			if (!keep)
				close(fd);
		}
		if (chdir("/") != 0)
			_exit(1);
		s->idle_s = NET_DAEMON_IDLE_S;
		s->allow_stop = 1;
		_exit(net_serve(s));
	}
	int st = child_wait(mid);
	net_server_close(s);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

