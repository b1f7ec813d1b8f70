/* out.c — recording results, formatting lmbench lines from the registry, the tool's JSON. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/clock.h"
#include "core/cpu.h"
#include "core/out.h"
#include "core/sysinfo.h"
#include "core/util.h"
#include "buildinfo.h"

void format_value(const char *fmt, double v, char *buf, size_t len)
{
	if (strcmp(fmt, "bw") == 0)
		snprintf(buf, len, v < 1 ? "%.6f" : "%.2f", v);
	else if (strcmp(fmt, "micromb") == 0)
		snprintf(buf, len, v >= 10 ? "%.0f" : "%.3f", v);
	else
		snprintf(buf, len, fmt, v);
}

int format_line(const struct metric_def *d, const struct result *r, char *buf, size_t len)
{
	if (!d || !d->line)
		return -1;
	size_t o = 0;
	char tmp[256];
	for (const char *p = d->line; *p && o + 1 < len; p++) {
		const char *add = NULL;
		if (p[0] == '%' && (p[1] == 'v' || p[1] == 'x')) {
			if (p[1] == 'v')
				format_value(d->vfmt ? d->vfmt : "%g", r->value, tmp, sizeof tmp);
			else
				format_value(d->xfmt ? d->xfmt : "%g", r->x, tmp, sizeof tmp);
			add = tmp;
			p++;
		} else if (p[0] == '{') {
			const char *e = strchr(p, '}');
			if (e && (size_t)(e - p) < 64) {
				char key[64];
				memcpy(key, p + 1, (size_t)(e - p - 1));
				key[e - p - 1] = 0;
				if (!param_get(r->params, key, tmp, sizeof tmp))
					snprintf(tmp, sizeof tmp, "?");
				add = tmp;
				p = e;
			}
		}
		if (add) {
			size_t l = strlen(add);
			if (o + l >= len)
				l = len - o - 1;
			memcpy(buf + o, add, l);
			o += l;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o] = 0;
	return 0;
}

void out_printf(struct tool_ctx *c, const char *fmt, ...)
{
	if (!c->out || c->json)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fflush(c->out);
}

void emit_line(struct tool_ctx *c, const struct result *r)
{
	char buf[512];
	if (format_line(metric_find(r->metric), r, buf, sizeof buf) == 0)
		out_printf(c, "%s\n", buf);
}

static void append_info(char **info, const char *kv)
{
	char *n = *info && **info ? xasprintf("%s %s", *info, kv) : xstrdup(kv);
	free(*info);
	*info = n;
}

void out_fact(struct tool_ctx *c, struct result *r, const char *key, const char *fmt, ...)
{
	char val[256], kv[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(val, sizeof val, fmt, ap);
	va_end(ap);
	out_printf(c, "[%s: %s]\n", key, val);
	/* Stored as key=value with blanks replaced, so the info string stays parseable. */
	for (char *p = val; *p; p++)
		if (*p == ' ')
			*p = '_';
	snprintf(kv, sizeof kv, "%s=%s", key, val);
	for (char *p = kv; *p && *p != '='; p++)
		if (*p == ' ')
			*p = '_';
	if (r)
		append_info(&r->info, kv);
	else
		append_info(&c->header_info, kv);
}

static struct result *new_result(struct tool_ctx *c, const char *metric, const char *params,
				 double x)
{
	/* only what the tool's file declares, noise included (core/metrics.h) */
	char why[256];
	if (metric_check_record(c->tool, metric, why, sizeof why) != 0)
		die(EXIT_MEASURE, "internal error: %s", why);
	const struct metric_def *d = metric_find(metric);
	struct result *r = result_list_add(&c->results, metric, params, x);
	r->unit = xstrdup(d->unit);
	r->version = d->version;
	return r;
}

/* v rounded to `decimals` places in JSON's shortest form ("24.8", "0"), so the JSON writer
 * gives it as a number whatever its digits (json_scalar keeps other text a string, and "24.80"
 * would have been one while "24.81" was not). */
static const char *trimmed(char *buf, size_t len, double v, int decimals)
{
	double scale = pow(10, decimals), r = round(v * scale) / scale;
	return json_fmt_num(r == 0 ? 0 : r, buf, len);
}

static void finish(struct tool_ctx *c, struct result *r, const struct measurement *m)
{
	const struct metric_def *d = metric_find(r->metric);
	result_update_value(r, metric_stat_dir(d));
	if (m) {
		char kv[256];
		char lo[32], co[32];
		snprintf(kv, sizeof kv, "cpu=%d placement=%s copies=%d iters=%llu "
			 "min_sample_ns=%.0f loop_overhead_ns=%s clock_overhead_ns=%s",
			 m->cpu, cpu_policy_desc(&c->timing.place), m->parallel, (unsigned long long)m->iters,
			 m->min_sample_ns, trimmed(lo, sizeof lo, m->loop_overhead_ns, 4),
			 trimmed(co, sizeof co, m->clock_overhead_ns, 2));
		append_info(&r->info, kv);
		if (*m->side_source && r->nsamples && r->samples[0].side) {
			snprintf(kv, sizeof kv, "side=%s", m->side_source);
			append_info(&r->info, kv);
		}
		if (*m->idle_names && r->nsamples && r->samples[0].side) {
			snprintf(kv, sizeof kv, "idle_states=%s", m->idle_names);
			append_info(&r->info, kv);
		}
		const char *kind = cpu_kind(m->cpu);
		if (*kind) {
			snprintf(kv, sizeof kv, "cpu_%s", kind);
			append_info(&r->info, kv);
		}
	}
	emit_line(c, r);
}

static double unit_scale_time(const char *unit)
{
	if (strcmp(unit, "us") == 0)
		return 1e-3;
	if (strcmp(unit, "ms") == 0)
		return 1e-6;
	if (strcmp(unit, "s") == 0)
		return 1e-9;
	return 1.0; /* ns */
}

/* The steady twin of metric (core/metrics.h) from m's steady figures, after its row: each
 * sample the median operation of what was timed for it, in the metric's unit. */
static void record_steady(struct tool_ctx *c, const char *metric, const char *params, double x,
			  const struct measurement *m, double k)
{
	const struct metric_def *t = metric_steady(metric_find(metric));
	if (!t || !m->steady || m->n == 0)
		return;
	struct result *r = new_result(c, t->id, params, x);
	for (size_t i = 0; i < m->n; i++) {
		const struct steady_sample *st = &m->steady[i];
		result_add_sample(r, (struct sample){ .value = st->value * k, .iters = st->ops,
						      .elapsed_ns = st->elapsed_ns,
						      .round = m->s[i].round });
	}
	/* a batch of one is a single operation, timed inside lmbench's sample or after it */
	result_add_info(r, "steady=%s steady_batch=%llu",
			m->steady[0].batch == 1 ? "single" : "batches",
			(unsigned long long)m->steady[0].batch);
	finish(c, r, m);
}

struct result *record_latency(struct tool_ctx *c, const char *metric, const char *params,
			      double x, const struct measurement *m, double ops)
{
	struct result *r = new_result(c, metric, params, x);
	double k = unit_scale_time(r->unit) / (ops > 0 ? ops : 1);
	for (size_t i = 0; i < m->n; i++) {
		struct sample s = m->s[i];
		struct side_sample sd;
		s.value *= k;
		if (s.side) {
			sd = *s.side;
			sd.ops = (double)s.iters * (ops > 0 ? ops : 1);
			s.side = &sd;
		}
		result_add_sample(r, s);
	}
	finish(c, r, m);
	size_t at = (size_t)(r - c->results.v); /* the twin may move the list */
	record_steady(c, metric, params, x, m, k);
	return &c->results.v[at];
}

struct result *record_bandwidth(struct tool_ctx *c, const char *metric, const char *params,
				double x, const struct measurement *m, double bytes)
{
	struct result *r = new_result(c, metric, params, x);
	/* bytes per ns = GB/s; MB/s = bytes/ns * 1000; lmbench's MB and KB are decimal. */
	double k = strcmp(r->unit, "KB/s") == 0 ? 1e6 : 1e3;
	int P = m->parallel > 0 ? m->parallel : 1;
	for (size_t i = 0; i < m->n; i++) {
		struct sample s = m->s[i];
		struct side_sample sd;
		s.value = s.value > 0 ? bytes * P / s.value * k : NAN;
		if (s.side) {
			sd = *s.side;
			sd.ops = (double)s.iters;
			s.side = &sd;
		}
		result_add_sample(r, s);
	}
	finish(c, r, m);
	return r;
}

struct result *record_values(struct tool_ctx *c, const char *metric, const char *params,
			     double x, const struct sample *s, size_t n)
{
	struct result *r = new_result(c, metric, params, x);
	for (size_t i = 0; i < n; i++)
		result_add_sample(r, s[i]);
	finish(c, r, NULL);
	return r;
}

void json_kv_object(struct json *j, const char *key, const char *kvs)
{
	json_obj_begin(j, key);
	char *copy = xstrdup(kvs ? kvs : "");
	char *save = NULL;
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (eq) {
			*eq = 0;
			json_scalar(j, t, eq + 1);
		} else {
			json_null(j, t);
		}
	}
	free(copy);
	json_obj_end(j);
}

void json_result(struct json *j, const struct result *r)
{
	const struct metric_def *d = metric_find(r->metric);
	json_obj_begin(j, NULL);
	json_str(j, "metric", r->metric);
	json_kv_object(j, "params", r->params);
	json_num(j, "x", r->x);
	json_num(j, "value", r->value);
	json_str(j, "unit", r->unit ? r->unit : d ? d->unit : "");
	json_str(j, "statistic", d ? stat_name(d->stat) : "median");
	json_str(j, "better", d ? better_name(d->better) : "neutral");
	json_int(j, "method_version", r->version);
	char line[512];
	if (d && !isnan(r->value) && format_line(d, r, line, sizeof line) == 0)
		json_str(j, "lmbench", line);
	json_kv_object(j, "info", r->info);
	json_arr_begin(j, "samples");
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct sample *s = &r->samples[i];
		json_obj_begin(j, NULL);
		json_num(j, "value", s->value);
		json_u64(j, "iters", s->iters);
		json_num(j, "elapsed_ns", s->elapsed_ns);
		json_int(j, "round", s->round);
		json_obj_end(j);
	}
	json_arr_end(j);
	side_json(j, r);
	json_obj_end(j);
}

struct result *measure_latency(struct tool_ctx *c, const struct bench_op *op, const char *metric,
			       const char *params, double x, double ops)
{
	struct measurement m;
	struct bench_op o = *op;
	o.steady = o.steady || metric_steady(metric_find(metric)) != NULL;
	if (measure(&c->timing, &o, &m) != 0)
		return NULL;
	struct result *r = record_latency(c, metric, params, x, &m, ops);
	measurement_free(&m);
	return r;
}

struct result *measure_bandwidth(struct tool_ctx *c, const struct bench_op *op,
				 const char *metric, const char *params, double x, double bytes)
{
	struct measurement m;
	if (measure(&c->timing, op, &m) != 0)
		return NULL;
	struct result *r = record_bandwidth(c, metric, params, x, &m, bytes);
	measurement_free(&m);
	return r;
}

int tool_finish(struct tool_ctx *c, int status)
{
	if (!c->json)
		return status;
	struct json j;
	json_init(&j, stdout, 1);
	json_doc_begin(&j, "tool");
	json_str(&j, "tool", c->tool);
	json_arr_begin(&j, "args");
	for (int i = 0; i < c->argc; i++)
		json_str(&j, NULL, c->argv[i]);
	json_arr_end(&j);
	json_int(&j, "status", status);
	json_str(&j, "placement", cpu_policy_desc(&c->timing.place));
	json_obj_begin(&j, "timing");
	json_num(&j, "clock_resolution_ns", clock_resolution_ns());
	json_num(&j, "clock_overhead_ns", clock_overhead_ns());
	json_int(&j, "repetitions", timing_repetitions(&c->timing));
	json_int(&j, "parallel", c->timing.opts.parallel);
	json_u64(&j, "warmup_us", c->timing.opts.warmup_us);
	json_num(&j, "min_sample_ns", timing_min_sample_ns(&c->timing, 0));
	json_obj_end(&j);
	json_kv_object(&j, "facts", c->header_info);
	sysinfo_json(&j, "system");
	json_arr_begin(&j, "results");
	for (size_t i = 0; i < c->results.n; i++)
		json_result(&j, &c->results.v[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	fflush(stdout);
	return status;
}
