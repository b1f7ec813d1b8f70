/*
 * lmdd.c — lmbench's dd-like timer: move bytes from if= to of= in bs= blocks and print how fast,
 * as `print=` asks. The suite's "File FILE write bandwidth" line is
 *   lmdd label="File FILE write bandwidth: " of=FILE move=8m fsync=1 print=3
 *
 * Keys (lmbench's names and meaning; a subset): if= of= (a file, `internal` = no file, i.e.
 * zeros in and nothing out, `stdin`/`stdout`/`-`), bs= (default 8k), count= blocks, move= bytes
 * (sets count), skip= input blocks, fsync=1 (fsync the output inside the timing), sync=1
 * (sync() inside the timing), print=0..5, label=, opat=1 (write the offset pattern), notrunc=1.
 * Sizes: k m g = 2^10 2^20 2^30, K M G = 10^3 10^6 10^9. Any other key: one line, exit 2.
 *
 * Safety: lmdd writes only to the path named by of=, a regular file (never a device), creating
 * or truncating it as dd does, and never deletes it. It takes one sample unless -N says more.
 */
/* 64-bit file offsets on 32-bit systems too (armhf): files and devices beyond 2 GiB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/fs/fs.h"
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/arch.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LMDD_WRITE_BW, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct dd {
	const char *in, *out;   /* NULL = internal */
	int ifd, ofd;
	int of_regular;
	uint64_t bs, count;     /* count 0 = until the input ends */
	uint64_t skip;
	int fsync_, sync_, opat, notrunc;
	unsigned char *buf;
	uint64_t moved, blocks; /* of the last sample */
	uint64_t acc;
};

static int dd_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		return -1;
	uint64_t mul = 1;
	switch (*end) {
	case 0: break;
	case 'k': mul = 1ull << 10; break;
	case 'm': mul = 1ull << 20; break;
	case 'g': mul = 1ull << 30; break;
	case 'K': mul = 1000; break;
	case 'M': mul = 1000000; break;
	case 'G': mul = 1000000000; break;
	default: return -1;
	}
	if (*end && end[1])
		return -1;
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

static void dd_rewind(uint64_t iters, void *a)
{
	struct dd *d = a;
	if (d->in && d->ifd != 0 && lseek(d->ifd, (off_t)(d->skip * d->bs), SEEK_SET) < 0)
		die(EXIT_MEASURE, "%s: %s", d->in, strerror(errno));
	if (d->of_regular) {
		if (lseek(d->ofd, 0, SEEK_SET) < 0 || (!d->notrunc && ftruncate(d->ofd, 0) != 0))
			die(EXIT_MEASURE, "%s: %s", d->out, strerror(errno));
	}
}

static void dd_loop(uint64_t iters, void *a)
{
	struct dd *d = a;
	for (uint64_t it = 0; it < iters; it++) {
		d->moved = d->blocks = 0;
		for (uint64_t b = 0; !d->count || b < d->count; b++) {
			size_t n = (size_t)d->bs;
			if (d->in) {
				ssize_t r;
				while ((r = read(d->ifd, d->buf, n)) < 0 && errno == EINTR)
					;
				if (r < 0)
					die(EXIT_MEASURE, "read %s: %s", d->in, strerror(errno));
				if (r == 0)
					break;
				n = (size_t)r;
			} else if (d->opat) {
				uint64_t *w = (uint64_t *)d->buf;
				for (size_t i = 0; i < n / 8; i++)
					w[i] = d->moved + i * 8;
			}
			if (d->out) {
				for (size_t off = 0; off < n;) {
					ssize_t w = write(d->ofd, d->buf + off, n - off);
					if (w < 0 && errno == EINTR)
						continue;
					if (w <= 0)
						die(EXIT_MEASURE, "write %s: %s", d->out,
						    w < 0 ? strerror(errno) : "no progress");
					off += (size_t)w;
				}
			} else {
				d->acc += fs_sum_words(d->buf, n); /* a read nobody looks at is still read */
			}
			d->moved += n;
			d->blocks++;
		}
		if (d->fsync_ && d->out && fsync(d->ofd) != 0 && errno != EINVAL)
			die(EXIT_MEASURE, "fsync %s: %s", d->out, strerror(errno));
		if (d->sync_)
			sync();
	}
	KEEP(d->acc);
}

static const char *const lm_keys_unsupported[] = {
	"rand", "start", "end", "time", "ipat", "mismatch", "flush", "rusage", "touch", "usleep",
	"bufs", "direct", "idirect", "odirect", "append", "nocreate", "osync", "timeopen", "padin",
	"norepeat", "hash", "poff", "rtmax", "wtmax", "rtmin", "wtmin", NULL,
};

static void print_result(struct tool_ctx *c, const char *label, int print, double bytes,
			 uint64_t blocks, uint64_t bs, double secs)
{
	char a[64], b[64];
	double mb = bytes / 1e6, mbs = secs > 0 ? mb / secs : NAN;
	switch (print) {
	case 1: /* lmbench's latency(): per-transfer time and the bandwidth */
		if (blocks <= 1)
			out_printf(c, "%s%.1fKB in ", label, bytes / 1e3);
		else
			out_printf(c, "%s%llu %lluKB xfers in %.2f secs, ", label,
				   (unsigned long long)blocks, (unsigned long long)(bs / 1000), secs);
		{
			double ms = secs * 1e3 / (double)(blocks ? blocks : 1);
			out_printf(c, ms > 100 ? "%.0f %s, " : "%.4f %s, ", ms,
				   blocks <= 1 ? "millisecs" : "millisec/xfer");
		}
		if (mbs > 1)
			out_printf(c, "%.2f MB/sec\n", mbs);
		else
			out_printf(c, "%.2f KB/sec\n", mbs * 1e3);
		break;
	case 2:
		out_printf(c, "%s%.4f microseconds\n", label, secs * 1e6 / (double)(blocks ? blocks : 1));
		break;
	case 3:
		out_printf(c, "%s%.0f KB/sec\n", label, bytes / 1e3 / secs);
		break;
	case 4:
		out_printf(c, "%s%.2f MB/sec\n", label, mbs);
		break;
	case 5:
		format_value("bw", mb, a, sizeof a);
		format_value("bw", mbs, b, sizeof b);
		out_printf(c, "%s%s %s\n", label, a, b);
		break;
	default:
		out_printf(c, "%s%.4f MB in %.4f secs, %.4f MB/sec\n", label, mb, secs, mbs);
	}
}

/* lmdd times one transfer unless -N asks for more; its operands are key=value pairs. */
static const struct tool_options lmdd_options = { .timing = { .repetitions = 1 } };

/* What the operands ask beyond the transfer itself. */
struct dd_print {
	const char *label;
	int print;          /* print= format, 0..5 */
	uint64_t move;      /* move= bytes, 0 = not given */
};

/* One key=value operand into d and pr; a usage error for anything else. */
static void dd_key(struct tool_ctx *c, struct dd *d, struct dd_print *pr, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		usage_error(c, "'%s' is not key=value", arg);
	size_t kl = (size_t)(eq - arg);
	const char *v = eq + 1;
	char key[32];
	snprintf(key, sizeof key, "%.*s", (int)(kl < 31 ? kl : 31), arg);
	uint64_t n = 0;
	int numeric = dd_size(v, &n) == 0;
#define NEED_NUM() do { if (!numeric) usage_error(c, "%s: '%s' is not a number", key, v); } while (0)
	if (!strcmp(key, "if"))
		d->in = strcmp(v, "internal") ? v : NULL;
	else if (!strcmp(key, "of"))
		d->out = strcmp(v, "internal") ? v : NULL;
	else if (!strcmp(key, "bs")) {
		NEED_NUM();
		if (n < 1 || n > (1ull << 30))
			usage_error(c, "bs: must be 1 to 1g bytes");
		d->bs = n;
	} else if (!strcmp(key, "count")) {
		NEED_NUM();
		d->count = n;
	} else if (!strcmp(key, "move")) {
		NEED_NUM();
		pr->move = n;
	} else if (!strcmp(key, "skip")) {
		NEED_NUM();
		d->skip = n;
	} else if (!strcmp(key, "fsync")) {
		NEED_NUM();
		d->fsync_ = n != 0;
	} else if (!strcmp(key, "sync")) {
		NEED_NUM();
		d->sync_ = n != 0;
	} else if (!strcmp(key, "opat")) {
		NEED_NUM();
		d->opat = n != 0;
	} else if (!strcmp(key, "notrunc")) {
		NEED_NUM();
		d->notrunc = n != 0;
	} else if (!strcmp(key, "print")) {
		NEED_NUM();
		if (n > 5)
			usage_error(c, "print: 0 to 5");
		pr->print = (int)n;
	} else if (!strcmp(key, "label"))
		pr->label = v;
	else {
		for (int k = 0; lm_keys_unsupported[k]; k++)
			if (!strcmp(key, lm_keys_unsupported[k]))
				usage_error(c, "lmbench's key '%s' is not implemented by plumb", key);
		usage_error(c, "unknown key '%s'", key);
	}
#undef NEED_NUM
}

static int is_stdio(const char *path, const char *name)
{
	return path && (!strcmp(path, name) || !strcmp(path, "-"));
}

/* Open if= and of= (of= only a regular file or a character device, created or truncated as
 * dd does); a one-line error and exit when they cannot be. */
static void dd_open(struct tool_ctx *c, struct dd *d)
{
	int stdio_in = is_stdio(d->in, "stdin");
	if (stdio_in && c->timing.opts.repetitions > 1)
		usage_error(c, "-N: standard input cannot be read twice");
	if (d->in)
		d->ifd = stdio_in ? 0 : open(d->in, O_RDONLY);
	if (d->ifd < 0 && d->in)
		die(EXIT_USAGE, "%s: %s", d->in, strerror(errno));
	if (is_stdio(d->out, "stdout")) {
		d->ofd = 1;
	} else if (d->out) {
		struct stat st;
		if (stat(d->out, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
			die(EXIT_USAGE, "of=%s: not a regular file (plumb never writes to disks)", d->out);
		d->ofd = open(d->out, O_WRONLY | O_CREAT | (d->notrunc ? 0 : O_TRUNC), 0644);
		if (d->ofd < 0)
			die(EXIT_USAGE, "of=%s: %s", d->out, strerror(errno));
		d->of_regular = fstat(d->ofd, &st) == 0 && S_ISREG(st.st_mode);
	}
}

/* The file system of a regular of= (its fact printed, its type returned); NULL otherwise. */
static const char *dd_fstype(struct tool_ctx *c, const struct dd *d)
{
	if (!d->of_regular)
		return NULL;
	char *dir = xstrdup(d->out), *sl = strrchr(dir, '/');
	if (sl)
		sl == dir ? (void)(sl[1] = 0) : (void)(*sl = 0);
	const char *fstype = xstrdup(fs_type_name(sl ? dir : "."));
	fs_fact(c, sl ? dir : ".");
	free(dir);
	return fstype;
}

/* Record the write bandwidth to a regular file; the line is printed as print= asks. */
static void dd_record(struct tool_ctx *c, const struct dd *d, struct measurement *m,
		      const char *fstype)
{
	FILE *save = c->out;
	c->out = NULL;
	char params[600];
	char sp[512];
	snprintf(params, sizeof params, "file=%s", stable_path(d->out, sp, sizeof sp));
	struct result *r = record_bandwidth(c, metrics[ROW_LMDD_WRITE_BW].id, params, NAN, m, (double)d->moved);
	c->out = save;
	result_add_info(r, "bytes=%llu bs=%llu fsync=%d fstype=%s path=%s",
			(unsigned long long)d->moved, (unsigned long long)d->bs, d->fsync_, fstype,
			d->out);
}

static int lmdd(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	struct dd d = { .ifd = -1, .ofd = -1, .bs = 8192 };
	struct dd_print pr = { .label = "" };
	for (int i = 0; i < args.n; i++)
		dd_key(c, &d, &pr, args.v[i]);
	if (pr.move)
		d.count = (pr.move + d.bs - 1) / d.bs;
	if (!d.in && !d.count)
		usage_error(c, "count= or move= is needed when the input is internal");
	dd_open(c, &d);
	d.buf = xcalloc(1, (size_t)d.bs + 8);
	const char *fstype = dd_fstype(c, &d);
	struct bench_op op = { .before = dd_rewind, .loop = dd_loop, .arg = &d, .fixed_iters = 1,
			       .no_parallel = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	double secs = measurement_stat(&m, 0) / 1e9;
	if (d.of_regular)
		dd_record(c, &d, &m, fstype);
	if (is_stdio(d.out, "stdout"))
		fflush(stdout);
	print_result(c, pr.label, pr.print, (double)d.moved, d.blocks, d.bs, secs);
	measurement_free(&m);
	if (d.ofd > 1)
		close(d.ofd);
	if (d.ifd > 0)
		close(d.ifd);
	free(d.buf);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lmdd", lmdd, 0, &lmdd_options, "key=value... (if= of= bs= count= move= skip= fsync= sync= print= label= opat= notrunc=)",
	     "dd-like transfer timer; the suite's file write bandwidth (with fsync)",
	     "if=/of= default to internal (zeros in, nothing out). of= must be a regular file: it is\n"
	     "created or truncated, never deleted. print=3 prints '<label>N KB/sec' (the suite's\n"
	     "\"File FILE write bandwidth\" line), 4 MB/sec, 5 'MB MB/s', 2 microseconds per block,\n"
	     "1 lmbench's latency line, 0 'X MB in Y secs, Z MB/sec'."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LMDD_WRITE_BW] = { .id = "lmdd.write_bw",
	  .unit = "KB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "sequential file write with fsync", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "File {file} write bandwidth: %v KB/sec", .vfmt = "%.0f",
	  .work = "writing the bytes with write() and fsync inside the timing; KB / time",
	  .subtracted = SUB_NOTHING, .lmbench = "",
	  .noise = { .group = "file", .run = 0.15, .run_eq = 0.15, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lmdd = { "lmdd", SUBSET_OS, "file write bandwidth (dd-like)", tools, metrics };
