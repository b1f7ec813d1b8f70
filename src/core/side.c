/*
 * side.c — side metrics read around each sample (side.h): perf software events or getrusage,
 * /proc/stat, cpuidle and cpufreq from sysfs. Every file is opened once per measuring process
 * and re-read with pread() at offset 0, so a snapshot costs a handful of system calls.
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/pmu.h"
#include "core/side.h"
#include "core/util.h"

static const char *const field_names[SIDE_NFIELDS] = {
	"vol_cs", "invol_cs", "cs", "migrations", "minflt", "majflt", "task_ns", "steal_ns",
	"irqs", "idle_usage", "idle_us", "freq_khz", "cycles", "instructions", "cache_misses",
	"dtlb_misses", "window_ns", "idle_cpus",
};

const char *side_field_name(int f)
{
	return f >= 0 && f < SIDE_NFIELDS ? field_names[f] : "?";
}

int side_field_find(const char *name)
{
	for (int f = 0; f < SIDE_NFIELDS; f++)
		if (strcmp(field_names[f], name) == 0)
			return f;
	return -1;
}

int side_field_is_level(int f)
{
	return f == SIDE_FREQ_KHZ || f == SIDE_IDLE_CPUS;
}

double side_window(const struct side_sample *s, double elapsed_ns)
{
	if (s && (s->have & 1u << SIDE_WINDOW_NS) && s->v[SIDE_WINDOW_NS] > 0)
		return s->v[SIDE_WINDOW_NS];
	return elapsed_ns;
}

int side_field_is_scale(int f)
{
	return f == SIDE_WINDOW_NS || f == SIDE_IDLE_CPUS;
}

double side_idle_share(const struct side_sample *s, uint32_t k)
{
	uint32_t need = 1u << SIDE_WINDOW_NS | 1u << SIDE_IDLE_CPUS;
	if (!s || (s->have & need) != need || k >= s->idle_states || !(s->v[SIDE_WINDOW_NS] > 0) ||
	    !(s->v[SIDE_IDLE_CPUS] > 0))
		return NAN;
	return 100 * s->idle_us[k] * 1e3 / (s->v[SIDE_WINDOW_NS] * s->v[SIDE_IDLE_CPUS]);
}

double side_per_op(const struct side_sample *s, int f)
{
	if (f < 0 || f >= SIDE_NFIELDS || !(s->have & (1u << f)))
		return NAN;
	if (side_field_is_level(f))
		return s->v[f];
	return s->ops > 0 ? s->v[f] / s->ops : NAN;
}

struct side_sample *side_dup(const struct side_sample *s)
{
	if (!s || !s->have)
		return NULL;
	struct side_sample *c = xmalloc(sizeof *c);
	*c = *s;
	return c;
}

/* The software events, in the order of side_probe.perf, and the field each fills. */
static const struct { unsigned config; int field; } sw_events[5] = {
	{ PERF_COUNT_SW_CONTEXT_SWITCHES, SIDE_CS },
	{ PERF_COUNT_SW_CPU_MIGRATIONS, SIDE_MIGRATIONS },
	{ PERF_COUNT_SW_PAGE_FAULTS_MIN, SIDE_MINFLT },
	{ PERF_COUNT_SW_PAGE_FAULTS_MAJ, SIDE_MAJFLT },
	{ PERF_COUNT_SW_TASK_CLOCK, SIDE_TASK_NS },
};

static int sw_open(unsigned config)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.inherit = 1; /* helpers forked after this are counted with us */
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int env_off(const char *name)
{
	const char *e = getenv(name);
	return e && (strcmp(e, "off") == 0 || strcmp(e, "0") == 0);
}

static int open_ro(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* The cpuidle files of up to SIDE_IDLE_CPU_MAX CPUs the process may run on. */
static void idle_open(struct side_probe *p)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return;
	/* unpinned: the CPUs a helper may share with us are unknown; read the first few */
	for (int cpu = 0; cpu < CPU_SETSIZE && p->idle_cpus < SIDE_IDLE_CPU_MAX; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		int k = p->idle_cpus, st = 0;
		for (; st < SIDE_IDLE_MAX; st++) {
			char path[128];
			snprintf(path, sizeof path,
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage", cpu, st);
			int u = open_ro(path);
			if (u < 0)
				break;
			snprintf(path, sizeof path,
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/time", cpu, st);
			p->idle_fd[k][st][0] = u;
			p->idle_fd[k][st][1] = open_ro(path);
			if (k == 0) {
				char name[32] = "", *nl;
				snprintf(path, sizeof path,
					 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, st);
				FILE *f = fopen(path, "r");
				if (f && fgets(name, sizeof name, f) && (nl = strchr(name, '\n')))
					*nl = 0;
				if (f)
					fclose(f);
				for (char *c = name; *c; c++)
					if (*c == ',' || *c == ' ' || *c == '=')
						*c = '_';
				size_t l = strlen(p->idle_names);
				snprintf(p->idle_names + l, sizeof p->idle_names - l, "%s%s",
					 st ? "," : "", *name ? name : "?");
			}
		}
		if (st == 0)
			break; /* no cpuidle here */
		if (k == 0)
			p->idle_states = st;
		else if (st < p->idle_states)
			p->idle_states = st;
		p->idle_cpus++;
	}
}

void side_open(struct side_probe *p, int cpu)
{
	memset(p, 0, sizeof *p);
	p->stat_fd = p->freq_fd = p->schedstat_fd = p->sched_fd = -1;
	for (int i = 0; i < 5; i++)
		p->perf[i] = -1;
	for (int i = 0; i < 4; i++)
		p->hw[i] = -1;
	for (int c = 0; c < SIDE_IDLE_CPU_MAX; c++)
		for (int s = 0; s < SIDE_IDLE_MAX; s++)
			p->idle_fd[c][s][0] = p->idle_fd[c][s][1] = -1;
	if (env_off("PLUMB_SIDE")) {
		snprintf(p->source, sizeof p->source, "off");
		return;
	}
	p->on = 1;
	const char *pe = getenv("PLUMB_SIDE_PERF");
	int perf_ok = pe && strcmp(pe, "on") == 0;
	for (int i = 0; i < 5 && perf_ok; i++)
		if ((p->perf[i] = sw_open(sw_events[i].config)) < 0)
			perf_ok = 0;
	if (!perf_ok)
		for (int i = 0; i < 5; i++)
			if (p->perf[i] >= 0) {
				close(p->perf[i]);
				p->perf[i] = -1;
			}
	snprintf(p->source, sizeof p->source, perf_ok ? "perf" : "proc");
	if (!perf_ok) {
		p->schedstat_fd = open_ro("/proc/self/schedstat");
		p->sched_fd = open_ro("/proc/self/sched");
	}
	pmu_open_counters(p->hw);
	p->stat_fd = open_ro("/proc/stat");
	idle_open(p);
	if (cpu < 0)
		cpu = sched_getcpu();
	char path[96];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	p->freq_fd = open_ro(path);
}

void side_close(struct side_probe *p)
{
	for (int i = 0; i < 5; i++)
		if (p->perf[i] >= 0)
			close(p->perf[i]);
	for (int i = 0; i < 4; i++)
		if (p->hw[i] >= 0)
			close(p->hw[i]);
	for (int i = 0; i < p->nhelpers; i++)
		if (p->helper_fd[i] >= 0)
			close(p->helper_fd[i]);
	int fds[4] = { p->stat_fd, p->freq_fd, p->schedstat_fd, p->sched_fd };
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	for (int c = 0; c < SIDE_IDLE_CPU_MAX; c++)
		for (int s = 0; s < SIDE_IDLE_MAX; s++)
			for (int k = 0; k < 2; k++)
				if (p->idle_fd[c][s][k] >= 0)
					close(p->idle_fd[c][s][k]);
	memset(p, 0, sizeof *p);
}

void side_meta(const struct side_probe *p, char *source, char *idle_names)
{
	snprintf(source, 16, "%s", p->on ? p->source : "");
	snprintf(idle_names, 96, "%s", p->on ? p->idle_names : "");
}

/* The file behind fd from its start, NUL-terminated; its length or -1. */
static ssize_t reread(int fd, char *buf, size_t len)
{
	if (fd < 0)
		return -1;
	ssize_t n = pread(fd, buf, len - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

static void put(struct side_snap *s, int f, double v)
{
	s->v[f] = v;
	s->have |= 1u << f;
}

/* steal (the aggregate cpu line's 8th figure, in clock ticks) and the interrupt total */
static void proc_stat(const struct side_probe *p, struct side_snap *s)
{
	char buf[8192];
	if (reread(p->stat_fd, buf, sizeof buf) <= 0)
		return;
	unsigned long long t[8];
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1], &t[2], &t[3],
		   &t[4], &t[5], &t[6], &t[7]) == 8)
		put(s, SIDE_STEAL_NS, (double)t[7] * 1e9 / (double)sysconf(_SC_CLK_TCK));
	const char *in = strstr(buf, "\nintr ");
	unsigned long long irq;
	if (in && sscanf(in + 6, "%llu", &irq) == 1)
		put(s, SIDE_IRQS, (double)irq);
}

static int read_num(int fd, double *v)
{
	char buf[64];
	if (reread(fd, buf, sizeof buf) <= 0)
		return -1;
	*v = strtod(buf, NULL);
	return 0;
}

static void idle_read(const struct side_probe *p, struct side_snap *s)
{
	if (!p->idle_cpus)
		return;
	double tu = 0, tt = 0;
	for (int st = 0; st < p->idle_states; st++) {
		double u = 0, t = 0, x;
		for (int c = 0; c < p->idle_cpus; c++) {
			if (read_num(p->idle_fd[c][st][0], &x) == 0)
				u += x;
			if (read_num(p->idle_fd[c][st][1], &x) == 0)
				t += x;
		}
		s->idle_usage[st] = u;
		s->idle_us[st] = t;
		tu += u;
		tt += t;
	}
	s->idle_states = (uint32_t)p->idle_states;
	put(s, SIDE_IDLE_USAGE, tu);
	put(s, SIDE_IDLE_US, tt);
	put(s, SIDE_IDLE_CPUS, p->idle_cpus);
}

/* A number after "key" in text (0 when absent). */
static double after(const char *text, const char *key)
{
	const char *k = strstr(text, key);
	return k ? strtod(k + strlen(key), NULL) : 0;
}

/* The live helpers' (registered children's, at most SIDE_HELPERS) CPU time and the times
 * they were switched in (/proc/PID/schedstat: run ns, wait ns, timeslices), added to s. Their
 * files stay open while the same helpers live. */
static void helpers_read(struct side_probe *p, struct side_snap *s)
{
	pid_t kids[SIDE_HELPERS];
	int n = child_list(kids, SIDE_HELPERS);
	int same = n == p->nhelpers;
	for (int i = 0; same && i < n; i++)
		same = kids[i] == p->helper_pid[i];
	if (!same) {
		for (int i = 0; i < p->nhelpers; i++)
			if (p->helper_fd[i] >= 0)
				close(p->helper_fd[i]);
		for (int i = 0; i < n; i++) {
			char path[64];
			snprintf(path, sizeof path, "/proc/%d/schedstat", (int)kids[i]);
			p->helper_pid[i] = kids[i];
			p->helper_fd[i] = open_ro(path);
		}
		p->nhelpers = n;
	}
	for (int i = 0; i < n; i++) {
		char buf[128];
		double run, wait, slices;
		if (reread(p->helper_fd[i], buf, sizeof buf) > 0 &&
		    sscanf(buf, "%lf %lf %lf", &run, &wait, &slices) == 3) {
			s->v[SIDE_TASK_NS] += run;
			s->v[SIDE_CS] += slices;
		}
	}
}

/* The process's own counters (and its helpers'), read at both ends of a sample. */
static void snap_process(struct side_probe *p, struct side_snap *s)
{
	struct rusage self, kids;
	if (getrusage(RUSAGE_SELF, &self) != 0 || getrusage(RUSAGE_CHILDREN, &kids) != 0)
		return;
	put(s, SIDE_VOL_CS, (double)(self.ru_nvcsw + kids.ru_nvcsw));
	put(s, SIDE_INVOL_CS, (double)(self.ru_nivcsw + kids.ru_nivcsw));
	if (p->perf[0] >= 0) {
		for (int i = 0; i < 5; i++) {
			uint64_t c;
			if (read(p->perf[i], &c, sizeof c) == (ssize_t)sizeof c)
				put(s, sw_events[i].field, (double)c);
		}
		return; /* perf's counts include the helpers */
	}
	put(s, SIDE_MINFLT, (double)(self.ru_minflt + kids.ru_minflt));
	put(s, SIDE_MAJFLT, (double)(self.ru_majflt + kids.ru_majflt));
	double v;
	if (read_num(p->schedstat_fd, &v) == 0)
		put(s, SIDE_TASK_NS, v);
	char buf[4096];
	if (reread(p->sched_fd, buf, sizeof buf) > 0 && strstr(buf, "se.nr_migrations"))
		put(s, SIDE_MIGRATIONS, after(strstr(buf, "se.nr_migrations"), ":"));
	put(s, SIDE_CS, s->v[SIDE_VOL_CS] + s->v[SIDE_INVOL_CS]);
	helpers_read(p, s);
}

/* What the whole machine did: read once a sample, at its end. */
static void snap_system(const struct side_probe *p, struct side_snap *s)
{
	for (int i = 0; i < 4; i++) {
		uint64_t c;
		if (p->hw[i] >= 0 && read(p->hw[i], &c, sizeof c) == (ssize_t)sizeof c)
			put(s, SIDE_CYCLES + i, (double)c);
	}
	/* the window's ends: its length is the difference, as for the counters read with it */
	struct timespec now;
	if (clock_gettime(CLOCK_MONOTONIC, &now) == 0)
		put(s, SIDE_WINDOW_NS, (double)now.tv_sec * 1e9 + (double)now.tv_nsec);
	proc_stat(p, s);
	idle_read(p, s);
	double khz;
	if (read_num(p->freq_fd, &khz) == 0)
		put(s, SIDE_FREQ_KHZ, khz);
}

void side_begin(struct side_probe *p)
{
	memset(&p->start, 0, sizeof p->start);
	if (!p->on)
		return;
	if (!p->have_last) {
		snap_system(p, &p->last);
		p->have_last = 1;
	}
	snap_process(p, &p->start);
}

/* The system's fields: the process's from start, the system's from the previous sample's end
 * (the first sample: its start). */
static int system_field(int f)
{
	return f >= SIDE_STEAL_NS;
}

void side_end(struct side_probe *p, struct side_sample *out)
{
	memset(out, 0, sizeof *out);
	if (!p->on)
		return;
	struct side_snap b;
	memset(&b, 0, sizeof b);
	snap_process(p, &b);
	snap_system(p, &b);
	const struct side_snap *a = &p->start, *l = &p->last;
	for (int f = 0; f < SIDE_NFIELDS; f++) {
		const struct side_snap *from = system_field(f) ? l : a;
		if (!((from->have & b.have) & (1u << f)))
			continue;
		out->have |= 1u << f;
		out->v[f] = side_field_is_level(f) ? b.v[f] : b.v[f] - from->v[f];
	}
	if (out->have & (1u << SIDE_IDLE_USAGE)) {
		out->idle_states = b.idle_states;
		for (int st = 0; st < (int)b.idle_states; st++) {
			out->idle_usage[st] = b.idle_usage[st] - l->idle_usage[st];
			out->idle_us[st] = b.idle_us[st] - l->idle_us[st];
		}
	}
	p->last = b;
}

void side_encode(const struct side_sample *s, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	if (!s->have)
		return;
	o += (size_t)snprintf(buf + o, len - o, "ops=%.17g", s->ops);
	for (int f = 0; f < SIDE_NFIELDS && o < len; f++)
		if (s->have & (1u << f))
			o += (size_t)snprintf(buf + o, len - o, " %s=%.17g", field_names[f], s->v[f]);
	for (uint32_t k = 0; k < s->idle_states && k < SIDE_IDLE_MAX && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, " idle%u=%.17g/%.17g", k, s->idle_usage[k],
				      s->idle_us[k]);
}

int side_decode(const char *text, struct side_sample *s)
{
	memset(s, 0, sizeof *s);
	char word[96];
	for (const char *p = text ? text : ""; *p;) {
		size_t l = strcspn(p, " ");
		if (l && l < sizeof word) {
			memcpy(word, p, l);
			word[l] = 0;
			char *eq = strchr(word, '='), *end;
			if (!eq)
				return -1;
			*eq = 0;
			double v = strtod(eq + 1, &end);
			unsigned k;
			int f = side_field_find(word);
			if (end == eq + 1 || (*end && *end != '/'))
				return -1;
			if (strcmp(word, "ops") == 0) {
				s->ops = v;
			} else if (f >= 0) {
				s->v[f] = v;
				s->have |= 1u << f;
			} else if (sscanf(word, "idle%u", &k) == 1 && k < SIDE_IDLE_MAX && *end == '/') {
				s->idle_usage[k] = v;
				s->idle_us[k] = strtod(end + 1, NULL);
				if (k + 1 > s->idle_states)
					s->idle_states = k + 1;
			}
		}
		p += l;
		while (*p == ' ')
			p++;
	}
	return 0;
}
