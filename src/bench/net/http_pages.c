/* http_pages.c — the pages lat_http's server end serves (net.h: net_http_page, called by the
 * HTTP handler in net_handlers.c) and the URLs lat_http.c fetches by default: each page exactly
 * its size, made once on first use. */
#include <stdio.h>
#include <string.h>
#include "bench/net/net.h"
#include "core/util.h"

#define NPAGES 14

static const struct {
	const char *path;
	size_t size;
} page_spec[NPAGES] = {
	{ "/index.html", 4200 }, { "/about.html", 2900 }, { "/news.html", 5600 },
	{ "/docs.html", 3800 }, { "/faq.html", 2200 }, { "/download.html", 1900 },
	{ "/license.html", 6100 }, { "/people.html", 1500 }, { "/history.html", 3300 },
	{ "/bench.html", 2600 }, { "/results.html", 4400 }, { "/links.html", 900 },
	{ "/contact.html", 700 }, { "/style.css", 1700 },
};

const char *const net_http_urls[] = {
	"/index.html", "/about.html", "/news.html", "/docs.html", "/faq.html", "/download.html",
	"/license.html", "/people.html", "/history.html", "/bench.html", "/results.html",
	"/links.html", "/contact.html", "/style.css", NULL,
};

static char *pages[NPAGES];

/* A page of exactly `size` bytes: a small HTML frame around repeated filler text. */
static char *make_page(const char *path, size_t size)
{
	char *p = xmalloc(size + 1);
	int n = snprintf(p, size + 1, "<html><head><title>plumb %s</title></head><body>\n", path);
	size_t o = n < 0 ? 0 : (size_t)n > size ? size : (size_t)n;
	static const char filler[] = "plumb measures the operating system and the hardware. ";
	for (size_t k = 0; o < size; o++, k++)
		p[o] = filler[k % (sizeof filler - 1)];
	const char tail[] = "\n</body></html>\n";
	if (size > sizeof tail)
		memcpy(p + size - (sizeof tail - 1), tail, sizeof tail - 1);
	p[size] = 0;
	return p;
}

const char *net_http_page(const char *path, size_t *len)
{
	if (strcmp(path, "/") == 0)
		path = "/index.html";
	for (int i = 0; i < NPAGES; i++)
		if (strcmp(path, page_spec[i].path) == 0) {
			if (!pages[i])
				pages[i] = make_page(page_spec[i].path, page_spec[i].size);
			*len = page_spec[i].size;
			return pages[i];
		}
	return NULL;
}
