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

TEST(net_remote_spec)
{
	CHECK(net_remote_set("10.0.0.2:41000") == 0);
	CHECK(strcmp(net_remote_host(), "10.0.0.2") == 0 && net_remote_base() == 41000);
	CHECK(net_remote_set("bench-host") == 0);
	CHECK(strcmp(net_remote_host(), "bench-host") == 0 && net_remote_base() == 0);
	CHECK(net_remote_set("[fe80::1]:5000") == 0);
	CHECK(strcmp(net_remote_host(), "fe80::1") == 0 && net_remote_base() == 5000);
	CHECK(net_remote_set("::1") == 0);
	CHECK(strcmp(net_remote_host(), "::1") == 0 && net_remote_base() == 0);
	CHECK(net_remote_set("host:0") == -1);
	CHECK(net_remote_set("host:99999") == -1);
	CHECK(net_remote_set("host:12x") == -1);
	CHECK(net_remote_set(":4000") == -1);
	CHECK(net_remote_set("[::1") == -1);
	CHECK(net_remote_set(NULL) == 0 && net_remote_host() == NULL);
}
