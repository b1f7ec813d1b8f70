/* net_test.c — the network helpers that need no network: ports and the --remote HOST[:BASE]
 * parser the suite uses. */
#include <string.h>
#include "bench/net/net.h"
#include "test.h"

TEST(net_ports)
{
	CHECK(net_port(NS_TCP, 0) == 31234);      /* lmbench's */
	CHECK(net_port(NS_UDP, 0) == 34298);
	CHECK(net_port(NS_CONNECT, 0) == 31237);
	CHECK(net_port(NS_BWTCP, 0) == 31236);
	CHECK(net_port(NS_TCP, 40000) == 40000);  /* plumb serve --port BASE */
	CHECK(net_port(NS_BWUDP, 40000) == 40006);
	for (int i = 0; i < NS_COUNT; i++)
		for (int j = 0; j < i; j++)
			if (i != NS_UNIX && j != NS_UNIX)
				CHECK(net_port(i, 40000) != net_port(j, 40000));
}

/* parse SPEC: its return, and host and base when it is 0 */
static int remote(const char *spec, char *host, int *base)
{
	return net_remote_parse(spec, host, 256, base);
}

TEST(net_remote_spec)
{
	char h[256];
	int b;
	CHECK(remote("10.0.0.2:41000", h, &b) == 0 && strcmp(h, "10.0.0.2") == 0 && b == 41000);
	CHECK(remote("bench-host", h, &b) == 0 && strcmp(h, "bench-host") == 0 && b == 0);
	CHECK(remote("[fe80::1]:5000", h, &b) == 0 && strcmp(h, "fe80::1") == 0 && b == 5000);
	CHECK(remote("::1", h, &b) == 0 && strcmp(h, "::1") == 0 && b == 0);
	CHECK(remote("host:0", h, &b) == -1);
	CHECK(remote("host:99999", h, &b) == -1);
	CHECK(remote("host:12x", h, &b) == -1);
	CHECK(remote(":4000", h, &b) == -1);
	CHECK(remote("[::1", h, &b) == -1);
	CHECK(remote(NULL, h, &b) == 0 && h[0] == 0 && b == 0);
	char small[4];
	CHECK(net_remote_parse("longhost", small, sizeof small, &b) == -1); /* no truncated host */
}
