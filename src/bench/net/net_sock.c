/*
 * net_sock.c — what both ends of the network tools use (net.h): the services' names and ports,
 * and the socket options set on every connection. Below net.c (the clients) and net_server.c
 * (the servers), which call it and never each other's internals the other way.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include "bench/net/net.h"

/* ---- ports ------------------------------------------------------------------------------ */

/* lmbench's fixed ports (lib_tcp.h / lib_udp.h); RPC and bw_udp have none there, as lmbench
 * used the portmapper for RPC: plumb fixes 31239 for both RPC transports. */
static const int lm_port[NS_COUNT] = {
	[NS_TCP] = 31234, [NS_UDP] = 34298, [NS_CONNECT] = 31237, [NS_BWTCP] = 31236,
	[NS_RPC] = 31239, [NS_HTTP] = 8008, [NS_BWUDP] = 34297, [NS_UNIX] = 0,
};
/* Offsets from `plumb serve --port BASE`. */
static const int base_off[NS_COUNT] = {
	[NS_TCP] = 0, [NS_UDP] = 1, [NS_CONNECT] = 2, [NS_BWTCP] = 3,
	[NS_RPC] = 4, [NS_HTTP] = 5, [NS_BWUDP] = 6, [NS_UNIX] = 0,
};
static const char *const svc_names[NS_COUNT] = {
	"tcp", "udp", "connect", "bw_tcp", "rpc", "http", "bw_udp", "unix_connect",
};

int net_port(enum net_svc s, int base)
{
	return base > 0 ? base + base_off[s] : lm_port[s];
}

const char *net_svc_name(enum net_svc s)
{
	return svc_names[s];
}

void net_nodelay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void net_timeouts(int fd, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}
