/*
 * kernel/watchdog_dump.c - the watchdog's dump (format: docs/hang.md).
 *
 * Every line starts "# watchdog " so KTAP readers skip it and grep finds
 * it; the dump runs from "# watchdog begin" to "# watchdog end".  Other
 * CPUs' registers come from an NMI each (it reaches a CPU with interrupts
 * off); their stacks are walked through frame pointers, checked page by
 * page, so a garbage RBP ends the walk instead of faulting.  Times are
 * relative: ms for ns clocks, jiffies ("j") for the wheels.
 */
#include "kernel/watchdog_internal.h"
#include "arch/x86_64/arch.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/tick.h"
#include "lib/atomic.h"
#include "lib/time.h"
#include "lib/printf.h"
#include "timer/timer_migration.h"
#include "timer/timer_peek.h"

/* Under TCG every vCPU thread must get the host once: more CPUs, longer. */
#define NMI_WAIT_NS(cpus) ((1000 + 20 * (uint64_t)(cpus)) * NSEC_PER_MSEC)
#define NMI_WAIT_MAX_NS	  (5000 * NSEC_PER_MSEC)
#define CONSOLE_SPINS	  100000000UL
#define TRACE_DEPTH	  8
#define MAX_GROUPS_SHOWN  4096
#define RFLAGS_IF	  (1ULL << 9)
#define TMIGR_PATH_MAX	  16

struct sample {
	uint64_t rip, rsp, rbp, rflags;
	const char *from; /* "nmi", "self" or "none" */
};

/* A CPU that came up at some point: its GS, IDT and LAPIC are set. */
static bool reachable(unsigned int c)
{
	return cpu_online(c) || READ_ONCE(per_cpu(c)->hp.offline);
}

static unsigned int request_registers(unsigned int me)
{
	unsigned int sent = 0;

	for (unsigned int c = 0; c < nr_cpus; c++) {
		struct wd_cpu *w = &wd_cpus[c];

		w->nmi_asked = c != me && reachable(c);
		if (!w->nmi_asked)
			continue;
		smp_store_release(&w->nmi_req, READ_ONCE(w->nmi_seq) + 1);
		sent += arch_send_nmi(c);
	}
	return sent;
}

static bool answered(unsigned int c)
{
	const struct wd_cpu *w = &wd_cpus[c];

	return w->nmi_asked &&
	       smp_load_acquire(&w->nmi_seq) == READ_ONCE(w->nmi_req);
}

/* Bounded: a CPU that does not answer is dumped without registers. */
static unsigned int wait_registers(unsigned int sent)
{
	uint64_t t0 = clock_ns(), limit = NMI_WAIT_NS(nr_cpus);
	unsigned int n;

	if (limit > NMI_WAIT_MAX_NS)
		limit = NMI_WAIT_MAX_NS;
	do {
		n = 0;
		for (unsigned int c = 0; c < nr_cpus; c++)
			n += answered(c);
		if (n >= sent)
			break;
		cpu_relax();
	} while (clock_ns() - t0 < limit);
	return n;
}

static void get_sample(unsigned int c, unsigned int me,
		       const struct trap_frame *self, struct sample *s)
{
	const struct wd_cpu *w = &wd_cpus[c];

	*s = (struct sample){ .from = "none" };
	if (c == me && self) {
		*s = (struct sample){ self->rip, self->rsp, self->rbp,
				      self->rflags, "self" };
	} else if (c != me && answered(c)) {
		*s = (struct sample){ READ_ONCE(w->rip), READ_ONCE(w->rsp),
				      READ_ONCE(w->rbp), READ_ONCE(w->rflags),
				      "nmi" };
	}
}

/* Return addresses of up to TRACE_DEPTH frames, comma-separated. */
static void walk_stack(uint64_t rbp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int d = 0; d < TRACE_DEPTH && arch_frame_readable(rbp); d++) {
		const uint64_t *frame = (const uint64_t *)rbp;
		uint64_t ret = frame[1];

		if (ret < (uint64_t)__text_start || ret >= (uint64_t)__text_end)
			break;
		used += snprintf(buf + used, len - used, "%s0x%lx",
				 used ? "," : "", ret);
		if (used >= len || frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* "+12ms", "-3ms" against @now, or "none". */
static const char *rel_ms(char *buf, size_t len, uint64_t t, uint64_t now)
{
	if (t == UINT64_MAX)
		snprintf(buf, len, "none");
	else if (t > now)
		snprintf(buf, len, "+%lums", (t - now) / NSEC_PER_MSEC);
	else
		snprintf(buf, len, "-%lums", (now - t) / NSEC_PER_MSEC);
	return buf;
}

static const char *rel_j(char *buf, size_t len, uint64_t j, uint64_t jnow)
{
	int64_t d = (int64_t)(j - jnow);

	snprintf(buf, len, "%s%ldj", d >= 0 ? "+" : "", d);
	return buf;
}

static const char *cpu_state(unsigned int c)
{
	const struct percpu *p = per_cpu(c);

	if (READ_ONCE(p->hp.offline))
		return "offline";
	if (!cpu_online(c))
		return "absent";
	if (READ_ONCE(p->idle.halted))
		return "halted";
	return READ_ONCE(p->idle.in_period) ? "idle" : "busy";
}

/* A wait argument inside a per-CPU area names that CPU (smp_call waits). */
static int arg_cpu(const void *arg)
{
	const char *a = arg, *base = (const char *)percpu_areas;

	if (a < base || a >= base + nr_cpus * sizeof(struct percpu))
		return -1;
	return (int)((size_t)(a - base) / sizeof(struct percpu));
}

static void dump_where(unsigned int c, const struct sample *s, uint64_t now)
{
	const struct wd_cpu *w = &wd_cpus[c];
	const char *what = READ_ONCE(w->wait.what);
	const void *arg = READ_ONCE(w->wait.arg);
	char trace[TRACE_DEPTH * 20 + 8];
	int ac = arg_cpu(arg);

	printk("# watchdog cpu=%u node=%u state=%s regs=%s rip=0x%lx "
	       "rsp=0x%lx rbp=0x%lx if=%u\n",
	       c, per_cpu(c)->node, cpu_state(c), s->from, s->rip, s->rsp,
	       s->rbp, (s->rflags & RFLAGS_IF) ? 1 : 0);
	walk_stack(s->from[0] == 'n' || s->from[0] == 's' ? s->rbp : 0, trace,
		   sizeof(trace));
	printk("# watchdog cpu=%u trace=%s\n", c, trace);
	if (!what) {
		printk("# watchdog cpu=%u wait=none\n", c);
		return;
	}
	if (ac >= 0)
		printk("# watchdog cpu=%u wait=%s arg=0x%lx arg_cpu=%d "
		       "for_ms=%lu\n",
		       c, what, (uint64_t)arg, ac,
		       (now - READ_ONCE(w->wait.since)) / NSEC_PER_MSEC);
	else
		printk("# watchdog cpu=%u wait=%s arg=0x%lx for_ms=%lu\n", c,
		       what, (uint64_t)arg,
		       (now - READ_ONCE(w->wait.since)) / NSEC_PER_MSEC);
}

static void dump_timers(unsigned int c, uint64_t now, uint64_t jnow)
{
	const struct percpu *p = per_cpu(c);
	uint64_t last = READ_ONCE(p->tick.last_irq_ns);
	char armed[24], clk[24], next[24], irq[24];

	/* 0: never; a tick after @now was read counts as just now. */
	rel_ms(irq, sizeof(irq), last ? (last < now ? last : now) : UINT64_MAX,
	       now);
	printk("# watchdog cpu=%u tick stopped=%u armed=%s last_timer_irq=%s "
	       "ticks=%lu softirq_pending=%u in_softirq=%u\n",
	       c, READ_ONCE(p->tick.stopped),
	       rel_ms(armed, sizeof(armed), READ_ONCE(p->tick.next_ns), now),
	       irq, READ_ONCE(p->tick.ticks), READ_ONCE(p->softirq.pending),
	       READ_ONCE(p->softirq.running));
	for (unsigned int b = 0; b < TIMER_PEEK_NR_BASES; b++) {
		struct timer_base_peek v;

		if (!timer_base_peek(c, b, &v))
			continue;
		printk("# watchdog cpu=%u base=%s clk=%s next_expiry=%s "
		       "pending=%u idle=%u locked=%u expiring=%u offline=%u\n",
		       c, timer_peek_base_name(b),
		       rel_j(clk, sizeof(clk), v.clk, jnow),
		       v.pending ?
			       rel_j(next, sizeof(next), v.next_expiry, jnow) :
			       "none",
		       v.pending, v.idle, v.locked, v.expiry_active, v.offline);
	}
}

/* How many levels up from its level-0 group this CPU is the migrator. */
static unsigned int migrator_levels(const struct tmigr_cpu_peek *t,
				    const struct tmigr_group_peek *path,
				    unsigned int n)
{
	uint8_t bit = t->childmask;
	unsigned int l = 0;

	while (l < n && path[l].migrator == bit)
		bit = path[l++].childmask;
	return l;
}

static void dump_tmigr(unsigned int c, uint64_t now)
{
	struct tmigr_group_peek path[TMIGR_PATH_MAX];
	struct tmigr_cpu_peek t;
	unsigned int n;
	char wake[24];

	if (!tmigr_cpu_peek(c, &t))
		return;
	n = tmigr_cpu_path_peek(c, path, TMIGR_PATH_MAX);
	if (!n) {
		printk("# watchdog cpu=%u tmigr online=%u group=none\n", c,
		       t.online);
		return;
	}
	printk("# watchdog cpu=%u tmigr online=%u idle=%u remote=%u locked=%u "
	       "group=%u childmask=0x%x group_active=0x%x group_migrator=0x%x "
	       "migrator_levels=%u/%u wakeup=%s\n",
	       c, t.online, t.idle, t.remote, t.locked, path[0].id, t.childmask,
	       path[0].active, path[0].migrator, migrator_levels(&t, path, n),
	       n, rel_ms(wake, sizeof(wake), t.wakeup, now));
}

/* Every group on some CPU's path, once, level 0 first per CPU. */
static void dump_groups(uint64_t now)
{
	static uint8_t shown[MAX_GROUPS_SHOWN / 8];
	struct tmigr_group_peek path[TMIGR_PATH_MAX];
	char next[24], node[12];

	for (unsigned int i = 0; i < sizeof(shown); i++)
		shown[i] = 0;
	for (unsigned int c = 0; c < nr_cpus; c++) {
		unsigned int n = tmigr_cpu_path_peek(c, path, TMIGR_PATH_MAX);

		for (unsigned int l = 0; l < n; l++) {
			const struct tmigr_group_peek *g = &path[l];

			if (g->id >= MAX_GROUPS_SHOWN ||
			    (shown[g->id / 8] & (1u << (g->id % 8))))
				continue;
			shown[g->id / 8] |= (uint8_t)(1u << (g->id % 8));
			if (g->node == TMIGR_NO_NODE)
				snprintf(node, sizeof(node), "none");
			else
				snprintf(node, sizeof(node), "%u", g->node);
			printk("# watchdog group id=%u level=%u node=%s "
			       "parent_bit=0x%x active=0x%x migrator=0x%x "
			       "seq=%u next_expiry=%s locked=%u\n",
			       g->id, g->level, node, g->childmask, g->active,
			       g->migrator, g->seq,
			       rel_ms(next, sizeof(next), g->next_expiry, now),
			       g->locked);
		}
	}
}

static void dump_stage(uint64_t now)
{
	const char *what = smp_load_acquire(&wd_stage.what);

	if (!what) {
		printk("# watchdog stage=none\n");
		return;
	}
	printk("# watchdog stage=%s/%s running_ms=%lu expected_ms=%lu\n", what,
	       wd_stage.detail ? wd_stage.detail : "-",
	       (now - wd_stage.since_ns) / NSEC_PER_MSEC,
	       wd_stage.expect_ns / NSEC_PER_MSEC);
}

void watchdog_dump(const char *reason, const struct trap_frame *self)
{
	unsigned int me = smp_processor_id(), sent, got;
	bool console_ok = printk_quiesce(CONSOLE_SPINS);
	uint64_t now, jnow;

	if (!wd_cpus)
		return;
	sent = request_registers(me);
	got = wait_registers(sent);
	now = clock_ns();
	jnow = tick_update_jiffies();
	printk("# watchdog begin reason=%s by_cpu=%u cpus=%u online=%u "
	       "stall_s=%lu uptime_ms=%lu jiffies=%lu nmi_sent=%u "
	       "nmi_answered=%u console=%s\n",
	       reason, me, nr_cpus, num_online_cpus(),
	       wd_stall_ns / (NSEC_PER_MSEC * 1000), now / NSEC_PER_MSEC, jnow,
	       sent, got, console_ok ? "free" : "broken");
	dump_stage(now);
	wd_scan(now, true);
	for (unsigned int c = 0; c < nr_cpus; c++) {
		struct sample s;

		get_sample(c, me, self, &s);
		dump_where(c, &s, now);
		dump_timers(c, now, jnow);
		dump_tmigr(c, now);
	}
	dump_groups(now);
	printk("# watchdog end\n");
}
