/* fsctx_test.c — the word sum every file read loop uses (bench/files.h): it must see every byte
 * exactly once whatever the length, chunking and alignment, or the "bytes read equal the file"
 * check of bw_file_rd/bw_mmap_rd proves nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bench/fs/fs.h"
#include "test.h"

TEST(fs_sum_matches_reference)
{
	size_t n = 70000;
	unsigned char *b = malloc(n + 16);
	uint64_t *al = malloc(n + 16);
	uint32_t x = 12345;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (unsigned char)(x >> 16);
	}
	memcpy(al, b, n);
	size_t lens[] = { 0, 1, 7, 8, 9, 63, 64, 65, 4096, 65536, 69999, 70000 };
	for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++)
		CHECK(fs_sum_words(al, lens[k]) == fs_sum_ref(b, lens[k]));
	/* Chunked in word-multiple pieces (as the read loop does) gives the same sum. */
	uint64_t s = 0;
	for (size_t off = 0; off < n; off += 4096)
		s += fs_sum_words((unsigned char *)al + off, n - off < 4096 ? n - off : 4096);
	CHECK(s == fs_sum_ref(b, n));
	/* One changed byte changes the sum. */
	uint64_t before = fs_sum_words(al, n);
	((unsigned char *)al)[n / 2] ^= 0x10;
	CHECK(fs_sum_words(al, n) != before);
	free(b);
	free(al);
}

TEST(fs_type_names)
{
	CHECK(strcmp(fs_type_name("/proc"), "?") != 0);
	CHECK(strcmp(fs_type_name("/no/such/dir"), "?") == 0);
}
