/*
 * net_server.c — the server engine behind every network benchmark's server end (net.h): the
 * master loop, and the two ways to start it from a tool (a child of the benchmark, or a
 * detached lmbench-style daemon). What its processes do with a client (the per-connection
 * handlers, the blocking datagram and RPC services) is in net_handlers.c.
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
	int rc = net_run_service(svc, s);
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

/* The master's state: the services it forked, the connections it holds or keeps waiting for
 * their first request, and the poll set built from them each round. */
struct master {
	struct net_server *s;
	pid_t svc_pid[NS_COUNT];
	int held[MAX_HELD], nheld;
	long held_since[MAX_HELD];   /* accept time: a silent connection is dropped after the timeout */
	struct pending pend[MAX_PENDING];
	int npend, pend_cap;
	int nhandlers, stop;
	long last;                   /* net_now_ms() of the last accept or child exit (--idle) */
	struct pollfd pf[NS_COUNT + MAX_HELD + MAX_PENDING];
	int pf_svc[NS_COUNT], pf_pend[MAX_PENDING];
	int nl, nh, nw;              /* pf: listeners before nl, held before nh, then nw waiting */
};

/* The UDP, bw_udp and RPC services block in receive loops of their own: fork them now, and
 * make the listening sockets left to the master non-blocking. */
static void start_services(struct master *m)
{
	struct net_server *s = m->s;
	const int forked[] = { NS_UDP, NS_BWUDP, NS_RPC };
	for (size_t k = 0; k < sizeof forked / sizeof forked[0]; k++) {
		int i = forked[k];
		if (s->fd[i] < 0 && !(i == NS_RPC && s->rpc_udp_fd >= 0))
			continue;
		m->svc_pid[i] = fork_service(s, i);
		if (m->svc_pid[i] < 0)
			m->svc_pid[i] = 0;
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
}

/* Poll the listeners, the held connections and those still silent; the number of entries. */
static int build_pollset(struct master *m)
{
	int np = 0;
	for (int i = 0; i < NS_COUNT; i++)
		if (m->s->fd[i] >= 0 && is_stream_svc(i)) {
			m->pf_svc[np] = i;
			m->pf[np++] = (struct pollfd){ .fd = m->s->fd[i], .events = POLLIN };
		}
	m->nl = np;
	for (int k = 0; k < m->nheld; k++)
		m->pf[np++] = (struct pollfd){ .fd = m->held[k], .events = POLLIN };
	m->nh = np;
	m->nw = 0;
	for (int k = 0; k < m->npend; k++)
		if (!m->pend[k].ready) {
			m->pf_pend[m->nw++] = k;
			m->pf[np++] = (struct pollfd){ .fd = m->pend[k].fd, .events = POLLIN };
		}
	return np;
}

static void held_drop(struct master *m, int k)
{
	close(m->held[k]);
	m->nheld--;
	m->held[k] = m->held[m->nheld];
	m->held_since[k] = m->held_since[m->nheld];
}

/* Held connect-test connections: done when the client closes (or sends a stop), or when
 * silent past the timeout. r is poll's answer. */
static void check_held(struct master *m, int r)
{
	for (int k = m->nheld - 1; r > 0 && k >= 0; k--) {
		if (!m->pf[m->nl + k].revents)
			continue;
		char c = 0;
		ssize_t got = recv(m->held[k], &c, 1, MSG_DONTWAIT);
		if (got < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (got == 1 && c == 'S' && m->s->allow_stop)
			m->stop = 1;
		held_drop(m, k);
	}
	long now = net_now_ms();
	for (int k = m->nheld - 1; k >= 0; k--)
		if (now - m->held_since[k] > m->s->conn_timeout_s * 1000L)
			held_drop(m, k);
}

/* Connections waiting for their first request: ready when it came, gone when the client
 * left. Marked first, removed after (the poll indexes must stay valid). */
static void check_pending(struct master *m, int r)
{
	for (int w = 0; r > 0 && w < m->nw; w++) {
		struct pending *q = &m->pend[m->pf_pend[w]];
		if (!m->pf[m->nh + w].revents)
			continue;
		char c;
		ssize_t got = recv(q->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
		if (got > 0)
			q->ready = 1;
		else if (got == 0 || (errno != EAGAIN && errno != EINTR))
			q->gone = 1;
	}
	uint64_t tnow = now_ns();
	for (int k = m->npend - 1; k >= 0; k--) {
		uint64_t age = tnow - m->pend[k].since;
		if (m->pend[k].gone || (!m->pend[k].ready && age > PENDING_TIMEOUT_NS) ||
		    age > (uint64_t)m->s->conn_timeout_s * 1000000000ull)
			pending_drop(m->pend, &m->npend, k);
	}
}

/* A connect-test connection is held until its client closes it; with MAX_HELD held, the
 * oldest goes: a flood cannot lock new ones out. */
static void hold_connection(struct master *m, int c)
{
	if (m->nheld == MAX_HELD)
		held_drop(m, 0);
	fcntl(c, F_SETFL, O_NONBLOCK);
	m->held_since[m->nheld] = m->last;
	m->held[m->nheld++] = c;
}

/* Accept up to 64 connections waiting on the listener of svc. */
static void accept_burst(struct master *m, int svc)
{
	struct net_server *s = m->s;
	for (int burst = 0; burst < 64; burst++) {
		int c = accept4(s->fd[svc], NULL, NULL, SOCK_CLOEXEC);
		if (c < 0 && (errno == EMFILE || errno == ENFILE) && pending_evict(m->pend, &m->npend))
			c = accept4(s->fd[svc], NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			break;
		m->last = net_now_ms();
		if (svc == NS_CONNECT || svc == NS_UNIX) {
			hold_connection(m, c);
			continue;
		}
		/* a handler only once the first request is here (idle connections cost one
		 * descriptor, never a handler); the pool full, the oldest idle one goes */
		if (m->npend == m->pend_cap && !pending_evict(m->pend, &m->npend)) {
			log_(s, "%s: too many connections waiting, refused one (%d)", net_svc_name(svc), m->npend);
			close(c);
			continue;
		}
		m->pend[m->npend++] = (struct pending){ .fd = c, .svc = svc, .since = now_ns() };
	}
}

static void accept_ready(struct master *m, int r)
{
	for (int p = 0; r > 0 && p < m->nl; p++)
		if (m->pf[p].revents)
			accept_burst(m, m->pf_svc[p]);
}

/* In a new handler process: keep only waiting connection k, serve it, exit. */
static _Noreturn void run_handler(struct master *m, int k)
{
	struct net_server *s = m->s;
	int c = m->pend[k].fd;
	for (int i = 0; i < NS_COUNT; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	for (int i = 0; i < m->nheld; i++)
		close(m->held[i]);
	for (int i = 0; i < m->npend; i++)
		if (i != k)
			close(m->pend[i].fd);
	net_timeouts(c, s->conn_timeout_s);
	int rc = net_handle_conn(m->pend[k].svc, c, s);
	close(c);
	cleanup_run();
	_exit(rc);
}

/* Ready connections get handlers, oldest first, while fewer than max_conns run. */
static void start_handlers(struct master *m)
{
	while (m->nhandlers < m->s->max_conns) {
		int k = -1;
		for (int i = 0; i < m->npend; i++)
			if (m->pend[i].ready && (k < 0 || m->pend[i].since < m->pend[k].since))
				k = i;
		if (k < 0)
			break;
		pid_t pid = plumb_fork();
		if (pid == 0)
			run_handler(m, k);
		pending_drop(m->pend, &m->npend, k);
		if (pid < 0)
			break;
		m->nhandlers++;
	}
}

/* Reap handlers and service processes; a stop status from any of them stops the master. */
static void reap_children(struct master *m)
{
	int st;
	pid_t pid;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		child_forget(pid);
		int is_svc = 0;
		for (int i = 0; i < NS_COUNT; i++)
			if (m->svc_pid[i] == pid) {
				m->svc_pid[i] = 0;
				is_svc = 1;
				log_(m->s, "%s service ended (%d)", net_svc_name(i), st);
			}
		if (!is_svc)
			m->nhandlers--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == STOP_STATUS && m->s->allow_stop)
			m->stop = 1;
		m->last = net_now_ms();
	}
}

/* --idle: with no connection open, stop once nothing was served for idle_s seconds, on the
 * monotonic clock in ms (time()'s whole seconds made --idle 1 end after 0.3 s). */
static void check_idle(struct master *m)
{
	struct net_server *s = m->s;
	if (s->idle_s <= 0 || m->nhandlers != 0 || m->nheld != 0 || m->npend != 0)
		return;
	long a = s->activity ? *s->activity : 0;
	long now = net_now_ms();
	if (a > m->last)
		m->last = a;
	if (now - m->last >= s->idle_s * 1000L) {
		log_(s, "idle for %s%d seconds: exiting", "", s->idle_s);
		m->stop = 1;
	}
}

int net_serve(struct net_server *s)
{
	if (s->helper_of)
		timing_place_helper(s->helper_of, 1);
	s->activity = mmap(NULL, sizeof *s->activity, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->activity == MAP_FAILED)
		s->activity = NULL;
	else
		*s->activity = net_now_ms();
	struct master *m = xcalloc(1, sizeof *m);   /* too big for a small stack */
	m->s = s;
	m->last = net_now_ms();
	start_services(m);
	m->pend_cap = pending_capacity();
	while (!m->stop) {
		int np = build_pollset(m);
		int r = poll(m->pf, (nfds_t)np, 250);
		if (r < 0 && errno != EINTR)
			break;
		check_held(m, r);
		check_pending(m, r);
		accept_ready(m, r);
		start_handlers(m);
		reap_children(m);
		check_idle(m);
	}
	for (int k = 0; k < m->nheld; k++)
		close(m->held[k]);
	for (int k = 0; k < m->npend; k++)
		close(m->pend[k].fd);
	free(m);
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

