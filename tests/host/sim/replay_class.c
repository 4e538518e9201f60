// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/replay_class.c - what a parsed trace means.
 *
 * After the last line: the CPU count, HZ and node map; the map from the
 * trace clock to jiffies; and one pass over the events that marks
 *   - each idle exit Linux took to serve a timer (RP_F_TIMER: the last
 *     interrupt of the idle period was the local timer and no hrtimer but
 *     the tick ran after it), which the replay does not take as work, and
 *     each exit whose CPU was idle again within the jiffy (RP_F_SHORT);
 *   - each timer_cancel that is Linux detaching a timer to run it (the
 *     next event of that timer is its timer_expire_entry): not replayed;
 *   - each timer_start from the timer's own callback (between its
 *     expire_entry and expire_exit on that CPU): replayed from the
 *     replayed callback, linked from the expire_exit (rp_event.target);
 * and counts what Linux itself did (struct rp_linux, docs/replay.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/replay.h"

#define NSEC_PER_SEC 1000000000ull

static int fail(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return -1;
}

/* "a-b,c" into node @node of @node_of; -1 on bad syntax or a CPU twice. */
static int parse_cpu_list(const char **pp, unsigned int cpus, unsigned int node,
			  uint16_t *node_of)
{
	const char *p = *pp;

	for (;;) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || *p < '0' || *p > '9')
			return -1;
		p = end;
		if (*p == '-') {
			b = strtoul(++p, &end, 10);
			if (end == p || *p < '0' || *p > '9' || b < a)
				return -1;
			p = end;
		}
		if (b >= cpus)
			return -1;
		for (unsigned long c = a; c <= b; c++) {
			if (node_of[c] != UINT16_MAX)
				return -1;
			node_of[c] = (uint16_t)node;
		}
		if (*p != ',')
			break;
		p++;
	}
	*pp = p;
	return 0;
}

/**
 * rp_parse_nodes - a node map: "0-3:4-7" (nodes split by ':', CPUs by ',')
 * or a node count K (K blocks of contiguous CPUs, sizes differing by one)
 * @map: the text
 * @cpus: CPUs of the trace; every one must be in exactly one node
 * @node_of: result, @cpus entries
 * @nodes: result
 * @err: the reason on error
 * @errlen: its size
 *
 * Returns 0 or -1.
 */
int rp_parse_nodes(const char *map, unsigned int cpus, uint16_t *node_of,
		   unsigned int *nodes, char *err, size_t errlen)
{
	const char *p = map;
	unsigned int n = 0;
	char *end;
	unsigned long k = strtoul(map, &end, 10);

	if (end != map && !*end) {
		if (!k || k > RP_MAX_NODES || k > cpus)
			return fail(err, errlen, "node count out of range");
		for (unsigned int c = 0; c < cpus; c++)
			node_of[c] = (uint16_t)((uint64_t)c * k / cpus);
		*nodes = (unsigned int)k;
		return 0;
	}
	memset(node_of, 0xff, cpus * sizeof(*node_of));
	for (;;) {
		if (n == RP_MAX_NODES || parse_cpu_list(&p, cpus, n, node_of))
			return fail(
				err, errlen,
				"bad node map (want e.g. 0-3:4-7, each CPU once)");
		n++;
		if (!*p)
			break;
		if (*p++ != ':')
			return fail(err, errlen,
				    "bad node map (want e.g. 0-3:4-7)");
	}
	for (unsigned int c = 0; c < cpus; c++)
		if (node_of[c] == UINT16_MAX)
			return fail(err, errlen, "node map leaves a CPU out");
	*nodes = n;
	return 0;
}

/* "...-8cpu-2node..." in the file name: even blocks, as the recorder made. */
static const char *nodes_from_name(const char *name, char *buf, size_t len)
{
	const char *p = name ? strstr(name, "cpu-") : NULL;
	unsigned long k;
	char *end;

	if (!p)
		return NULL;
	k = strtoul(p + 4, &end, 10);
	if (end == p + 4 || strncmp(end, "node", 4) || !k)
		return NULL;
	snprintf(buf, len, "%lu", k);
	return buf;
}

/*
 * HZ from the jiffies samples (timer_start's jiffies, timer_expire_entry's
 * now=) over the whole trace, snapped to a kernel's HZ.
 */
static int find_hz(struct rp_trace *tr, char *err, size_t errlen)
{
	static const unsigned int hzs[] = { 100, 250, 300, 1000 };
	const struct rp_event *a = NULL, *b = NULL;
	double rate;

	for (size_t i = 0; i < tr->nr_ev; i++) {
		const struct rp_event *e = &tr->ev[i];

		if (e->type != RP_START && e->type != RP_EXP_ENTRY)
			continue;
		if (!a)
			a = e;
		b = e;
	}
	if (!a)
		return fail(
			err, errlen,
			"no timer_start or timer_expire_entry: nothing to replay");
	if (tr->hz)
		return 0;
	if (b->ns - a->ns < NSEC_PER_SEC || b->jif <= a->jif)
		return fail(
			err, errlen,
			"under a second of timer events: HZ unknown (add a '# tinykernel-replay: hz=N' line)");
	rate = (double)(b->jif - a->jif) * NSEC_PER_SEC /
	       (double)(b->ns - a->ns);
	for (size_t i = 0; i < sizeof(hzs) / sizeof(*hzs); i++) {
		if (rate > hzs[i] * 0.9 && rate < hzs[i] * 1.1) {
			tr->hz = hzs[i];
			return 0;
		}
	}
	return fail(err, errlen, "jiffies advance at no kernel's HZ");
}

/*
 * Jiffy J began at or before every event that saw jiffies == J: the
 * earliest such start over all samples is the map's anchor.  Every
 * event's jiffy follows; j0 is the one before the first event.
 */
static int map_jiffies(struct rp_trace *tr, char *err, size_t errlen)
{
	uint64_t tick = NSEC_PER_SEC / tr->hz, ref = 0;
	__int128 best = 0, first = tr->ev[0].ns, back;
	bool any = false;

	for (size_t i = 0; i < tr->nr_ev; i++) {
		const struct rp_event *e = &tr->ev[i];
		__int128 start;

		if (e->type != RP_START && e->type != RP_EXP_ENTRY)
			continue;
		if (!any)
			ref = e->jif;
		start = (__int128)e->ns - ((__int128)e->jif - ref) * tick;
		if (!any || start < best)
			best = start;
		any = true;
	}
	/* best: trace ns where jiffy @ref began; j0: the jiffy before @first. */
	back = best > first ? (best - first + tick - 1) / tick : 0;
	best -= back * tick;
	ref -= (uint64_t)back;
	tr->j0 = ref + (uint64_t)((first - best) / tick) - 1;
	tr->t0_ns = (uint64_t)(best + ((__int128)tr->j0 - ref) * tick);
	for (size_t i = 0; i < tr->nr_ev; i++) {
		struct rp_event *e = &tr->ev[i];

		e->sim_j = tr->j0 + (e->ns - tr->t0_ns) / tick;
		/* jiffies lag the clock (a late tick), but not by seconds. */
		if ((e->type == RP_START || e->type == RP_EXP_ENTRY) &&
		    e->sim_j - e->jif > 2ull * tr->hz)
			return fail(
				err, errlen,
				"jiffies samples disagree with the timestamps");
	}
	tr->last_j = tr->ev[tr->nr_ev - 1].sim_j;
	return 0;
}

static int find_topology(struct rp_trace *tr, char *err, size_t errlen)
{
	unsigned int seen = 0;
	const char *map;
	char buf[24];

	for (size_t i = 0; i < tr->nr_ev; i++)
		if (tr->ev[i].cpu + 1u > seen)
			seen = tr->ev[i].cpu + 1u;
	for (size_t i = 0; i < tr->nr_ev; i++)
		if (tr->ev[i].type == RP_START && tr->ev[i].target + 1 > seen)
			seen = tr->ev[i].target + 1;
	tr->cpus = tr->hdr_cpus ? tr->hdr_cpus : seen;
	if (seen > tr->cpus)
		return fail(err, errlen, "a CPU beyond the #P: count");
	map = tr->nodes_arg    ? tr->nodes_arg :
	      tr->hdr_nodes[0] ? tr->hdr_nodes :
				 nodes_from_name(tr->name, buf, sizeof(buf));
	return rp_parse_nodes(map ? map : "1", tr->cpus, tr->node_of,
			      &tr->nodes, err, errlen);
}

/* Per-CPU state of the classifying pass. */
struct cls_cpu {
	bool idle, known;
	size_t exit_ev;	   /* last idle exit, for RP_F_SHORT */
	int last_irq;	   /* RP_LOC, RP_RES, RP_CALL or -1 */
	bool ran_wheel;	   /* a wheel callback or tmigr this idle */
	bool hr_after_loc; /* a non-tick hrtimer since the last LOC */
	bool hr_any;
	uint32_t cb; /* the timer whose callback runs, or RP_NONE */
	uint64_t idle_from;
};

struct cls_timer {
	size_t last_ev;	   /* index of its last event, or SIZE_MAX */
	size_t incb_start; /* START from its callback, or SIZE_MAX */
	uint64_t expires;
	uint32_t base; /* cpu= of its last start, or RP_NONE */
	bool defer;
};

static void linux_exit(struct rp_trace *tr, struct cls_cpu *c,
		       struct rp_event *e, size_t i)
{
	struct rp_linux *lx = &tr->linux_;
	uint64_t len = e->ns - c->idle_from;

	lx->exits++;
	lx->idle_ns += len;
	if (len >= 1000000)
		lx->idle_1ms_ns += len;
	if (len >= 10000000)
		lx->idle_10ms_ns += len;
	if (c->ran_wheel)
		lx->wheel++;
	else if (c->hr_any)
		lx->hrtimer++;
	else if (c->last_irq == RP_LOC)
		lx->empty++;
	else if (c->last_irq >= 0)
		lx->ipi++;
	else
		lx->other++;
	if (c->last_irq == RP_LOC && !c->hr_after_loc) {
		e->flags |= RP_F_TIMER;
		lx->timer_exits++;
	}
	c->idle = false;
	c->exit_ev = i;
}

static void linux_expiry(struct rp_trace *tr, struct cls_timer *t,
			 const struct rp_event *e)
{
	struct rp_linux *lx = &tr->linux_;
	uint64_t late;

	lx->expiries++;
	if (t->base == RP_NONE) {
		lx->unknown_expiries++;
		return;
	}
	if (t->base != e->cpu)
		lx->remote_expiries++;
	if (t->defer || e->jif < t->expires)
		return;
	late = e->jif - t->expires;
	lx->late_hist[late < 64 ? late : 64]++;
	lx->late_n++;
	if (late > lx->late_max_j)
		lx->late_max_j = late;
}

static void class_timer_event(struct rp_trace *tr, struct cls_cpu *c,
			      struct cls_timer *t, size_t i)
{
	struct rp_event *e = &tr->ev[i];

	switch (e->type) {
	case RP_START:
		if (c->cb == e->timer && t->incb_start == SIZE_MAX) {
			e->flags |= RP_F_INCB;
			t->incb_start = i;
		}
		t->base = e->target;
		t->expires = e->expires;
		t->defer = e->flags & RP_F_DEFER;
		break;
	case RP_EXP_ENTRY:
		if (t->last_ev != SIZE_MAX &&
		    tr->ev[t->last_ev].type == RP_CANCEL)
			tr->ev[t->last_ev].flags |= RP_F_DETACH;
		linux_expiry(tr, t, e);
		if (c->idle)
			c->ran_wheel = true;
		c->cb = e->timer;
		t->incb_start = SIZE_MAX;
		break;
	case RP_EXP_EXIT:
		if (c->cb == e->timer) {
			c->cb = RP_NONE;
			if (t->incb_start != SIZE_MAX)
				e->target = (uint32_t)t->incb_start;
		}
		t->incb_start = SIZE_MAX;
		break;
	default:
		break;
	}
	t->last_ev = i;
}

static void class_cpu_event(struct rp_trace *tr, struct cls_cpu *c, size_t i)
{
	struct rp_event *e = &tr->ev[i];
	uint64_t tick = NSEC_PER_SEC / tr->hz;

	switch (e->type) {
	case RP_IDLE_ENTER:
		if (c->known && !c->idle && c->exit_ev != SIZE_MAX) {
			const struct rp_event *x = &tr->ev[c->exit_ev];

			if ((x->ns - tr->t0_ns) / tick ==
			    (e->ns - tr->t0_ns) / tick)
				tr->ev[c->exit_ev].flags |= RP_F_SHORT;
			if (x->flags & RP_F_TIMER)
				tr->linux_.busy_timer_ns += e->ns - x->ns;
			else
				tr->linux_.busy_work_ns += e->ns - x->ns;
		}
		c->idle = c->known = true;
		c->idle_from = e->ns;
		c->last_irq = -1;
		c->ran_wheel = c->hr_after_loc = c->hr_any = false;
		c->exit_ev = SIZE_MAX;
		break;
	case RP_IDLE_EXIT:
		if (c->known && c->idle)
			linux_exit(tr, c, e, i);
		c->known = true;
		c->idle = false;
		break;
	case RP_LOC:
	case RP_RES:
	case RP_CALL:
		c->last_irq = e->type;
		if (e->type == RP_LOC)
			c->hr_after_loc = false;
		break;
	case RP_HR_EXP:
		if (!(e->flags & RP_F_TICK))
			c->hr_after_loc = c->hr_any = true;
		break;
	case RP_TMIGR_REMOTE:
		if (c->idle)
			c->ran_wheel = true;
		break;
	case RP_TMIGR_REMOTE_CPU:
		tr->linux_.remote_cpu_walks++;
		break;
	default:
		break;
	}
}

static int classify(struct rp_trace *tr)
{
	struct cls_cpu *cpus = calloc(tr->cpus, sizeof(*cpus));
	struct cls_timer *timers = calloc(tr->nr_timers + 1, sizeof(*timers));

	if (!cpus || !timers) {
		free(cpus);
		free(timers);
		return -1;
	}
	for (unsigned int c = 0; c < tr->cpus; c++) {
		cpus[c].cb = RP_NONE;
		cpus[c].exit_ev = SIZE_MAX;
		cpus[c].last_irq = -1;
	}
	for (uint32_t t = 0; t < tr->nr_timers; t++) {
		timers[t].last_ev = timers[t].incb_start = SIZE_MAX;
		timers[t].base = RP_NONE;
	}
	for (size_t i = 0; i < tr->nr_ev; i++) {
		struct rp_event *e = &tr->ev[i];

		if (e->timer != RP_NONE)
			class_timer_event(tr, &cpus[e->cpu], &timers[e->timer],
					  i);
		else
			class_cpu_event(tr, &cpus[e->cpu], i);
	}
	free(cpus);
	free(timers);
	return 0;
}

/**
 * rp_finish - make sense of a fully parsed trace
 * @tr: the trace
 * @err: the reason on error
 * @errlen: its size
 *
 * Returns 0, or -1 (nothing to replay, HZ unknown, bad node map).
 */
int rp_finish(struct rp_trace *tr, char *err, size_t errlen)
{
	if (find_hz(tr, err, errlen) || find_topology(tr, err, errlen) ||
	    map_jiffies(tr, err, errlen))
		return -1;
	if (classify(tr))
		return fail(err, errlen, "out of memory");
	return 0;
}

/** rp_hist_pct - the @pct-th percentile of a histogram of @n samples */
uint64_t rp_hist_pct(const uint64_t *hist, unsigned int bins, uint64_t n,
		     unsigned int pct)
{
	uint64_t want = (n * pct + 99) / 100, acc = 0;

	if (!n)
		return 0;
	for (unsigned int i = 0; i < bins; i++) {
		acc += hist[i];
		if (acc >= want)
			return i;
	}
	return bins - 1;
}
