/*
 * rpc_serve.c — the server end of lat_rpc (net.h: net_rpc_serve), run by a service's handler
 * (net_handlers.c); the client is lat_rpc.c. Procedure 1 takes a char and returns one
 * (lmbench's xact); procedure 2 stops a -s server. The server sets a maximum record size,
 * which makes libtirpc read connections without blocking, so one slow client cannot stall the
 * others. Built without libtirpc it serves nothing and returns 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bench/net/net.h"
#include "core/util.h"

#ifdef HAVE_TIRPC
#include <fcntl.h>
#include <poll.h>
#include <rpc/rpc.h>
#include <rpc/rpc_com.h>
#include "bench/net/rpc_xdr.h"

static int rpc_stop, rpc_allow_stop;
static volatile long *rpc_activity;

static void dispatch(struct svc_req *rq, SVCXPRT *x)
{
	char c = 0;
	switch (rq->rq_proc) {
	case NULLPROC:
		svc_sendreply(x, x_void, NULL);
		return;
	case 1:
		if (!svc_getargs(x, x_char, (caddr_t)&c)) {
			svcerr_decode(x);
			return;
		}
		c = 123;
		svc_sendreply(x, x_char, (caddr_t)&c);
		if (rpc_activity)
			*rpc_activity = net_now_ms();
		return;
	case 2:
		svc_sendreply(x, x_void, NULL);
		if (rpc_allow_stop)
			rpc_stop = 1;
		return;
	default:
		svcerr_noproc(x);
	}
}

int net_rpc_serve(int tcp_fd, int udp_fd, int allow_stop, volatile long *activity)
{
	rpc_allow_stop = allow_stop;
	rpc_activity = activity;
	int maxrec = 65536;
	rpc_control(RPC_SVC_CONNMAXREC_SET, &maxrec);
	if (tcp_fd >= 0) {
		fcntl(tcp_fd, F_SETFL, fcntl(tcp_fd, F_GETFL) & ~O_NONBLOCK);
		SVCXPRT *t = svctcp_create(tcp_fd, 0, 0);
		if (!t || !svc_register(t, NET_RPC_PROG, NET_RPC_VERS, dispatch, 0))
			return 1;
	}
	if (udp_fd >= 0) {
		SVCXPRT *u = svcudp_create(udp_fd);
		if (!u || !svc_register(u, NET_RPC_PROG, NET_RPC_VERS, dispatch, 0))
			return 1;
	}
	struct pollfd *p = NULL;
	int cap = 0;
	while (!rpc_stop) {
		int n = svc_max_pollfd;
		if (n > cap) {
			cap = n;
			p = xrealloc(p, (size_t)cap * sizeof *p);
		}
		memcpy(p, svc_pollfd, (size_t)n * sizeof *p);
		int r = poll(p, (nfds_t)n, 1000);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0)
			svc_getreq_poll(p, r);
	}
	free(p);
	return rpc_stop ? NET_STOP_STATUS : 0;
}

#else /* !HAVE_TIRPC */

int net_rpc_serve(int tcp_fd, int udp_fd, int allow_stop, volatile long *activity)
{
	(void)tcp_fd; (void)udp_fd; (void)allow_stop; (void)activity;
	return 1;
}

#endif
