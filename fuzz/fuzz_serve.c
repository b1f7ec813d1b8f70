/* fuzz_serve.c — libFuzzer harness for what `plumb serve` parses from clients: HTTP request
 * lines and bw_tcp's message-size line. The first byte picks the parser; the rest is the input,
 * passed without a terminating NUL, as it arrives from the socket. */
#include <stdint.h>
#include <string.h>
#include "bench/net/net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *in = (const char *)data + 1;
	size_t n = size - 1;
	if (data[0] & 1) {
		char path[256];
		int k = net_parse_http_request(in, n, path, sizeof path);
		if (k == HTTP_REQ_GET && (strlen(path) == 0 || strlen(path) >= sizeof path))
			__builtin_trap();
		if (k == HTTP_REQ_GET) {
			size_t len;
			(void)net_http_page(path, &len);
		}
	} else {
		unsigned long v;
		(void)net_parse_bw_request(in, n, &v);
	}
	return 0;
}
