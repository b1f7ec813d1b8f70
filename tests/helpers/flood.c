/*
 * flood.c — a bounded loopback connection flood for tests/cli/signals.sh and bench/README.md:
 * `flood PORT N SECONDS` opens N TCP connections to 127.0.0.1:PORT that never send a byte,
 * prints "open K" (how many connected) when done, holds them SECONDS, then exits. Loopback
 * only, and at most 4096 connections: it exercises plumb serve, nothing else.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: flood PORT N SECONDS\n");
		return 2;
	}
	int port = atoi(argv[1]), n = atoi(argv[2]), secs = atoi(argv[3]);
	if (port <= 0 || port > 65535 || n <= 0 || n > 4096 || secs < 0) {
		fprintf(stderr, "flood: PORT 1-65535, N 1-4096, SECONDS >= 0\n");
		return 2;
	}
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)n + 16) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)n + 16 ? rl.rlim_max : (rlim_t)n + 16;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int open_ = 0;
	for (int i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			break;
		if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
			close(fd);
			break;
		}
		open_++;
	}
	printf("open %d\n", open_);
	fflush(stdout);
	sleep((unsigned)secs);
	return 0;
}
