// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/replay/test_replay.c - the trace parser and the replay.
 *
 * Parser: good lines of every event it uses, each class of malformed
 * line, truncated input (text and gzip), node maps.  Classification:
 * Linux's idle exits by cause, detaching cancels, in-callback re-arms.
 * Replay: a timer-service exit is not work, a callback's re-arm follows
 * the replayed expiry, idle residency at the events' own times, the lower
 * bound's cases, and the excerpt kept beside this file (see README.md
 * here) runs under every model with the invariants intact.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/host/registry.h"
#include "tests/host/sim/replay.h"
#include "tests/host/sim/sim.h"

#define EXCERPT "tests/host/replay/linux-6.12-mixed-excerpt.trace.gz"
#define J0	4294894800ull /* jiffy that begins at 10.000000 s */

static struct rp_trace tr;
static char err[RP_ERR_LEN];

/* An event line of CPU @cpu at 10 s + @us (HZ 250: jiffy J0 + us/4000). */
static int ev(unsigned int cpu, unsigned long us, const char *event)
{
	char line[512];
	int n = snprintf(
		line, sizeof(line),
		"          <idle>-0       [%03u] d..1.    %lu.%06lu: %s", cpu,
		10 + us / 1000000, us % 1000000, event);

	return rp_parse_line(&tr, line, (size_t)n, err, sizeof(err));
}

static int text(const char *line)
{
	return rp_parse_line(&tr, line, strlen(line), err, sizeof(err));
}

static void setup(void)
{
	rp_trace_init(&tr, "test");
	err[0] = 0;
}

static void teardown(void)
{
	rp_trace_free(&tr);
}

/* "timer_start" of timer @ptr by @cpu at @us for jiffy offset @rel. */
static int start(unsigned int cpu, unsigned long us, unsigned int ptr, long rel,
		 unsigned int base, const char *flags)
{
	char f[256];
	uint64_t now = J0 + us / 4000;

	snprintf(
		f, sizeof(f),
		"timer_start: timer=%016x function=f expires=%llu [timeout=%ld] bucket_expiry=%llu cpu=%u idx=1 flags=%s",
		ptr, (unsigned long long)(now + (uint64_t)rel), rel,
		(unsigned long long)(now + (uint64_t)rel + 1), base, flags);
	return ev(cpu, us, f);
}

static int expire(unsigned int cpu, unsigned long us, unsigned int ptr,
		  const char *what)
{
	char f[256];

	if (!strcmp(what, "entry"))
		snprintf(
			f, sizeof(f),
			"timer_expire_entry: timer=%016x function=f now=%llu baseclk=%llu",
			ptr, (unsigned long long)(J0 + us / 4000),
			(unsigned long long)(J0 + us / 4000));
	else
		snprintf(f, sizeof(f), "timer_%s: timer=%016x", what, ptr);
	return ev(cpu, us, f);
}

START_TEST(test_good_lines)
{
	const struct rp_event *e;

	ck_assert_int_eq(
		text("# entries-in-buffer/entries-written: 5/5   #P:8"), 0);
	ck_assert_uint_eq(tr.hdr_cpus, 8);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250 nodes=0-3:4-7"), 0);
	ck_assert_uint_eq(tr.hz, 250);
	ck_assert_str_eq(tr.hdr_nodes, "0-3:4-7");
	ck_assert_int_eq(
		text("     kworker/u17:0-9       [002] d..1.    10.587280: timer_start: timer=000000002f6451c1 function=delayed_work_timer_fn expires=4294895382 [timeout=500] cpu=5 idx=99 flags=D|P|I"),
		0);
	e = &tr.ev[0];
	ck_assert_uint_eq(e->type, RP_START);
	ck_assert_uint_eq(e->cpu, 2);
	ck_assert_uint_eq(e->ns, 10587280000ull);
	ck_assert_uint_eq(e->expires, 4294895382ull);
	ck_assert_uint_eq(e->jif, 4294895382ull - 500);
	ck_assert_uint_eq(e->target, 5);
	ck_assert_uint_eq(e->flags, RP_F_PINNED | RP_F_DEFER);
	ck_assert_int_eq(
		text("     rcu_preempt-18      [000] dN.1.    15.905143: timer_start: timer=000000002eec379c function=process_timeout expires=4294896272 [timeout=-1] bucket_expiry=4294896273 cpu=0 idx=17 flags="),
		0);
	ck_assert_uint_eq(tr.ev[1].jif, 4294896273ull);
	ck_assert_uint_eq(tr.ev[1].flags, 0);
	ck_assert_uint_ne(tr.ev[1].timer, tr.ev[0].timer);
	ck_assert_int_eq(
		text("          <idle>-0       [003] dN.1.    15.905200: cpu_idle: state=4294967295 cpu_id=3"),
		0);
	ck_assert_uint_eq(tr.ev[2].type, RP_IDLE_EXIT);
	ck_assert_int_eq(
		text("          <idle>-0       [003] d..1.    15.905300: cpu_idle: state=1 cpu_id=3"),
		0);
	ck_assert_uint_eq(tr.ev[3].type, RP_IDLE_ENTER);
	ck_assert_int_eq(
		text("          <idle>-0       [004] d.h1.    15.905400: hrtimer_expire_entry: hrtimer=00000000a6375d62 function=tick_nohz_handler now=10281058995"),
		0);
	ck_assert_uint_eq(tr.ev[4].flags, RP_F_TICK);
	ck_assert_int_eq(
		text("          <idle>-0       [004] d.s1.    15.905500: timer_expire_entry: timer=000000002eec379c function=process_timeout now=4294896273 baseclk=4294896273"),
		0);
	ck_assert_uint_eq(tr.ev[5].timer, tr.ev[1].timer);
	ck_assert_uint_eq(tr.ev[5].jif, 4294896273ull);
	/* Used by nobody: counted, not kept. */
	ck_assert_int_eq(
		text("          <idle>-0       [004] d.h2.    15.905600: hrtimer_start: hrtimer=00000000a6375d62 function=tick_nohz_handler expires=1 softexpires=1 mode=ABS was_armed=0"),
		0);
	ck_assert_uint_eq(tr.nr_ev, 6);
	ck_assert_uint_eq(tr.skipped, 1);
	ck_assert_uint_eq(tr.hr_events, 2);
	ck_assert_int_eq(text(""), 0);
}
END_TEST

static const struct {
	const char *line, *why;
} bad_lines[] = {
	{ "garbage", "no [CPU] column" },
	{ "  a-1 [99999] d..1. 10.000001: cpu_idle: state=1 cpu_id=1",
	  "CPU column out of range" },
	{ "  a-1 [001] d..1. 10.x: cpu_idle: state=1 cpu_id=1",
	  "bad timestamp" },
	{ "  a-1 [001] d..1. 10.000001 cpu_idle: state=1 cpu_id=1",
	  "bad timestamp" },
	{ "  a-1 [001] d..1. 10.000001: ", "no event name" },
	{ "  a-1 [001] d..1. 10.000001: timer_start: timer=1 expires=5 [timeout=1] cpu=1 idx=1",
	  "missing field flags=" },
	{ "  a-1 [001] d..1. 10.000001: timer_start: timer=zz expires=5 [timeout=1] cpu=1 flags=",
	  "bad number in field timer=" },
	{ "  a-1 [001] d..1. 10.000001: timer_start: timer=1 expires=5 [timeout=9] cpu=1 flags=",
	  "bad number in field timeout=" },
	{ "  a-1 [001] d..1. 10.000001: timer_start: timer=1 expires=5 [timeout=1] cpu=1 flags=X",
	  "bad letter in flags=" },
	{ "  a-1 [001] d..1. 10.000001: timer_start: timer=1 expires=5 cpu=1 flags=",
	  "missing field timeout=" },
	{ "  a-1 [001] d..1. 10.000001: timer_expire_entry: timer=1 function=f",
	  "missing field now=" },
	{ "  a-1 [001] d..1. 10.000001: cpu_idle: state=1 cpu_id=2",
	  "cpu_id= is not the CPU column" },
	{ "  a-1 [001] d..1. 10.000001: cpu_idle: cpu_id=1",
	  "missing field state=" },
	{ "CPU:3 [LOST 12 EVENTS]", "ring buffer overrun" },
};

START_TEST(test_bad_line)
{
	ck_assert_int_eq(text(bad_lines[_i].line), -1);
	ck_assert_msg(strstr(err, bad_lines[_i].why),
		      "line \"%s\": got \"%s\", want \"%s\"",
		      bad_lines[_i].line, err, bad_lines[_i].why);
	ck_assert_uint_eq(tr.nr_ev, 0);
}
END_TEST

START_TEST(test_bad_order_and_cpu)
{
	ck_assert_int_eq(ev(0, 2000, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(ev(0, 1000, "reschedule_entry: vector=253"), -1);
	ck_assert_ptr_nonnull(strstr(err, "timestamp goes back"));
	ck_assert_int_eq(text("#P:2"), 0);
	ck_assert_int_eq(ev(2, 3000, "reschedule_entry: vector=253"), -1);
	ck_assert_ptr_nonnull(strstr(err, "beyond the #P: count"));
}
END_TEST

START_TEST(test_truncated_text)
{
	static const char buf[] =
		"# tinykernel-replay: hz=250\n"
		"          <idle>-0       [000] d..1.    10.000100: cpu_idle: state=1 cpu_id=0\n"
		"          <idle>-0       [000] d..1.    10.000200: timer_start: timer=1 expires=5";

	ck_assert_int_eq(
		rp_read_buf(&tr, buf, sizeof(buf) - 1, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "line 3: truncated"), "got \"%s\"", err);
}
END_TEST

/* The excerpt reads; cut in half (a gzip stream ending early), it fails. */
START_TEST(test_truncated_gzip)
{
	char path[] = "/tmp/test_replay_XXXXXX";
	FILE *in = fopen(EXCERPT, "rb");
	static char data[1 << 20];
	size_t n;
	int fd;
	FILE *out;

	ck_assert_msg(in != NULL, "%s missing (run from the tree's top)",
		      EXCERPT);
	n = fread(data, 1, sizeof(data), in);
	fclose(in);
	ck_assert_int_eq(rp_read_file(&tr, EXCERPT), 0);
	ck_assert_uint_eq(tr.cpus, 8);
	ck_assert_uint_eq(tr.nodes, 2);
	ck_assert_uint_eq(tr.hz, 250);
	ck_assert_uint_eq(tr.node_of[3], 0);
	ck_assert_uint_eq(tr.node_of[4], 1);
	rp_trace_free(&tr);
	rp_trace_init(&tr, path);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "wb");
	ck_assert_uint_eq(fwrite(data, 1, n / 2, out), n / 2);
	fclose(out);
	ck_assert_int_eq(rp_read_file(&tr, path), -1);
	unlink(path);
}
END_TEST

START_TEST(test_nodes)
{
	uint16_t node_of[8];
	unsigned int nodes;

	ck_assert_int_eq(rp_parse_nodes("0-3:4-7", 8, node_of, &nodes, err,
					sizeof(err)),
			 0);
	ck_assert_uint_eq(nodes, 2);
	ck_assert_uint_eq(node_of[3], 0);
	ck_assert_uint_eq(node_of[4], 1);
	ck_assert_int_eq(rp_parse_nodes("0,2,4:1,3:5-7", 8, node_of, &nodes,
					err, sizeof(err)),
			 0);
	ck_assert_uint_eq(nodes, 3);
	ck_assert_uint_eq(node_of[2], 0);
	ck_assert_uint_eq(node_of[3], 1);
	ck_assert_uint_eq(node_of[6], 2);
	ck_assert_int_eq(
		rp_parse_nodes("3", 7, node_of, &nodes, err, sizeof(err)), 0);
	ck_assert_uint_eq(nodes, 3);
	ck_assert_uint_eq(node_of[0], 0);
	ck_assert_uint_eq(node_of[6], 2);
	ck_assert_int_eq(rp_parse_nodes("0-3:3-7", 8, node_of, &nodes, err,
					sizeof(err)),
			 -1);
	ck_assert_int_eq(rp_parse_nodes("0-2:4-7", 8, node_of, &nodes, err,
					sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "leaves a CPU out"));
	ck_assert_int_eq(rp_parse_nodes("0-8", 8, node_of, &nodes, err,
					sizeof(err)),
			 -1);
	ck_assert_int_eq(rp_parse_nodes("0-3:", 8, node_of, &nodes, err,
					sizeof(err)),
			 -1);
	ck_assert_int_eq(
		rp_parse_nodes("9", 8, node_of, &nodes, err, sizeof(err)), -1);
}
END_TEST

/*
 * Five idle periods of CPU 0: a wheel callback, only the tick, another
 * hrtimer, an IPI, nothing traced.  The wheel timer was queued on CPU 1.
 */
START_TEST(test_linux_exits)
{
	ck_assert_int_eq(text("#P:2"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(start(1, 100, 0xa1, 10, 1, ""), 0);
	ck_assert_int_eq(ev(0, 200, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 44000, "local_timer_entry: vector=236"), 0);
	ck_assert_int_eq(
		ev(0, 44010,
		   "hrtimer_expire_entry: hrtimer=1 function=tick_nohz_handler now=1"),
		0);
	ck_assert_int_eq(expire(0, 44020, 0xa1, "cancel"), 0);
	ck_assert_int_eq(expire(0, 44030, 0xa1, "entry"), 0);
	ck_assert_int_eq(expire(0, 44040, 0xa1, "expire_exit"), 0);
	ck_assert_int_eq(ev(0, 44050, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(ev(0, 44060, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 48000, "local_timer_entry: vector=236"), 0);
	ck_assert_int_eq(
		ev(0, 48010,
		   "hrtimer_expire_entry: hrtimer=1 function=tick_nohz_handler now=1"),
		0);
	ck_assert_int_eq(ev(0, 48050, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(ev(0, 48060, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 52000, "local_timer_entry: vector=236"), 0);
	ck_assert_int_eq(
		ev(0, 52010,
		   "hrtimer_expire_entry: hrtimer=2 function=hrtimer_wakeup now=1"),
		0);
	ck_assert_int_eq(ev(0, 52050, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(ev(0, 52060, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 56000, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(ev(0, 56050, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(ev(0, 66060, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 1100000, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(start(1, 1100100, 0xa2, 10, 1, ""), 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
	ck_assert_uint_eq(tr.cpus, 2);
	ck_assert_uint_eq(tr.nodes, 1);
	ck_assert_uint_eq(tr.linux_.exits, 5);
	ck_assert_uint_eq(tr.linux_.wheel, 1);
	ck_assert_uint_eq(tr.linux_.empty, 1);
	ck_assert_uint_eq(tr.linux_.hrtimer, 1);
	ck_assert_uint_eq(tr.linux_.ipi, 1);
	ck_assert_uint_eq(tr.linux_.other, 1);
	ck_assert_uint_eq(tr.linux_.remote_expiries, 1);
	ck_assert_uint_eq(tr.linux_.timer_exits, 2);
	ck_assert_uint_eq(tr.linux_.late_n, 1);
	ck_assert_uint_eq(tr.linux_.late_max_j, 1); /* due j+10, ran j+11 */
	ck_assert(tr.ev[4].flags & RP_F_DETACH);    /* the cancel */
	ck_assert(tr.ev[7].flags & RP_F_TIMER);	    /* wheel exit */
	ck_assert(tr.ev[11].flags & RP_F_TIMER);    /* tick-only exit */
	ck_assert(!(tr.ev[15].flags & RP_F_TIMER)); /* hrtimer_wakeup */
	ck_assert(!(tr.ev[18].flags & RP_F_TIMER)); /* IPI */
	ck_assert(tr.ev[15].flags & RP_F_SHORT);
	ck_assert(!(tr.ev[18].flags & RP_F_SHORT)); /* busy 10 ms */
	ck_assert_uint_eq(tr.ev[0].sim_j, J0);
	ck_assert_uint_eq(tr.j0, J0 - 1);
}
END_TEST

static int replay(enum timer_model model, struct sim_stats *st)
{
	struct sim_config c = {
		.cpus = tr.cpus,
		.nodes = tr.nodes,
		.shape = SHAPE_EVEN,
		.model = model,
		.seed = 1,
		.hz = tr.hz,
		.wrap = 0 - tr.j0,
		.trace_timer = -1,
		.trace_cpu = -1,
		.replay = &tr,
		.node_of = tr.node_of,
	};

	return sim_run(&c, st);
}

/*
 * CPU 0 busy, arms a pinned timer, idles; Linux wakes it for the timer
 * and a worker keeps it busy 12 ms.  With @irq a reschedule IPI comes
 * instead of the timer interrupt: then the exit is the workload's.
 */
static void service_trace(bool irq)
{
	ck_assert_int_eq(text("#P:1"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(ev(0, 100, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(ev(0, 200, "cpu_idle: state=4294967295 cpu_id=0"), 0);
	ck_assert_int_eq(start(0, 1000, 0xb1, 5, 0, "P"), 0);
	ck_assert_int_eq(ev(0, 2000, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 24000,
			    irq ? "reschedule_entry: vector=253" :
				  "local_timer_entry: vector=236"),
			 0);
	ck_assert_int_eq(expire(0, 24010, 0xb1, "cancel"), 0);
	ck_assert_int_eq(expire(0, 24020, 0xb1, "entry"), 0);
	ck_assert_int_eq(expire(0, 24030, 0xb1, "expire_exit"), 0);
	ck_assert_int_eq(ev(0, 24100, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(ev(0, 36100, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 60000, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
}

START_TEST(test_service_exit_not_work)
{
	struct sim_stats st;

	service_trace(false);
	ck_assert_int_eq(replay(TIMER_MODEL_PULL, &st), 0);
	ck_assert_uint_le(st.busy_jiffies, 1);
	ck_assert_uint_eq(st.wakes[WAKE_IRQ], 1);   /* the first exit */
	ck_assert_uint_eq(st.wakes[WAKE_LOCAL], 1); /* the timer's own */
	ck_assert_uint_eq(st.expired, 1);
	rp_trace_free(&tr);
	rp_trace_init(&tr, "test");
	service_trace(true);
	ck_assert_int_eq(replay(TIMER_MODEL_PULL, &st), 0);
	ck_assert_uint_ge(st.busy_jiffies, 3);
	ck_assert_uint_eq(st.wakes[WAKE_IRQ], 2);
}
END_TEST

/*
 * A timer re-arming itself +10 from its callback; Linux ran it 4 jiffies
 * late each time.  Replayed on time, relative to its own expiries, it
 * expires three times by j+36; open loop (re-armed at Linux's times) it
 * would expire twice.
 */
START_TEST(test_closed_loop_rearm)
{
	struct sim_stats st;

	ck_assert_int_eq(text("#P:2"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(ev(1, 100, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(ev(1, 200, "cpu_idle: state=4294967295 cpu_id=1"), 0);
	ck_assert_int_eq(ev(0, 300, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(start(1, 1000, 0xc1, 10, 1, ""), 0);
	for (unsigned long j = 14; j <= 28; j += 14) {
		ck_assert_int_eq(expire(1, j * 4000 + 100, 0xc1, "cancel"), 0);
		ck_assert_int_eq(expire(1, j * 4000 + 110, 0xc1, "entry"), 0);
		ck_assert_int_eq(start(1, j * 4000 + 120, 0xc1, 10, 1, ""), 0);
		ck_assert_int_eq(expire(1, j * 4000 + 130, 0xc1, "expire_exit"),
				 0);
	}
	ck_assert_int_eq(ev(0, 36 * 4000 + 100, "reschedule_entry: vector=253"),
			 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
	ck_assert(tr.ev[6].flags & RP_F_INCB);
	ck_assert_uint_eq(tr.ev[7].target, 6);
	ck_assert_int_eq(replay(TIMER_MODEL_PULL, &st), 0);
	ck_assert_uint_eq(st.expired, 3);
	ck_assert_uint_eq(st.late_max_j, 1);
}
END_TEST

/*
 * Idle periods of 0.6 ms (an interrupt in idle ends it), 5 ms and 50 ms:
 * the residency shares count exactly those, at the events' own times.
 */
START_TEST(test_residency)
{
	struct sim_stats st;

	ck_assert_int_eq(text("#P:1"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(start(0, 100, 0xd1, 1000, 0, ""), 0);
	ck_assert_int_eq(ev(0, 1000, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 1400, "call_function_single_entry: vector=251"),
			 0);
	ck_assert_int_eq(ev(0, 1500, "cpu_idle: state=4294967295 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 1600, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 6500, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(ev(0, 6600, "cpu_idle: state=4294967295 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 9000, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 58900, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(ev(0, 59000, "cpu_idle: state=4294967295 cpu_id=0"),
			 0);
	ck_assert_int_eq(ev(0, 61000, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(0, 62000, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
	ck_assert_int_eq(replay(TIMER_MODEL_PULL, &st), 0);
	ck_assert_uint_eq(st.idle_ns, 55600000);
	ck_assert_uint_eq(st.idle_1ms_ns, 55000000);
	ck_assert_uint_eq(st.idle_10ms_ns, 50000000);
	ck_assert_uint_eq(st.wakes[WAKE_IRQ], 3);
	/* Linux's own, from cpu_idle alone: 0.5, 5 and 50 ms. */
	ck_assert_uint_eq(tr.linux_.idle_ns, 55500000);
	ck_assert_uint_eq(tr.linux_.idle_10ms_ns, 50000000);
}
END_TEST

/*
 * Both CPUs idle from the start.  Due at j+6: a pinned timer of CPU 0 and
 * a movable one (one wake serves both); at j+11 a movable one (one wake);
 * a deferrable one (none); at j+21 a movable one while CPU 1 is busy
 * (none).
 */
START_TEST(test_lower_bound)
{
	struct sim_stats st;

	ck_assert_int_eq(text("#P:2"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(start(0, 100, 0xe1, 5, 0, "P"), 0);
	ck_assert_int_eq(start(0, 110, 0xe2, 5, 0, ""), 0);
	ck_assert_int_eq(start(1, 120, 0xe3, 10, 1, ""), 0);
	ck_assert_int_eq(start(1, 130, 0xe4, 8, 1, "D|P"), 0);
	ck_assert_int_eq(start(1, 140, 0xe5, 20, 1, ""), 0);
	ck_assert_int_eq(ev(0, 200, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(ev(1, 210, "cpu_idle: state=1 cpu_id=1"), 0);
	ck_assert_int_eq(ev(1, 18 * 4000 + 500, "reschedule_entry: vector=253"),
			 0);
	ck_assert_int_eq(ev(1, 18 * 4000 + 600,
			    "cpu_idle: state=4294967295 cpu_id=1"),
			 0);
	ck_assert_int_eq(ev(0, 25 * 4000 + 500, "reschedule_entry: vector=253"),
			 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
	for (enum timer_model m = TIMER_MODEL_PULL; m <= TIMER_MODEL_LOCAL;
	     m++) {
		ck_assert_int_eq(replay(m, &st), 0);
		ck_assert_uint_eq(st.lb_pinned, 1);
		ck_assert_uint_eq(st.lb_global, 1);
		ck_assert_uint_eq(st.expired, 5); /* D when CPU 1 woke */
		ck_assert_uint_ge(st.wakes_idle, 2);
	}
}
END_TEST

/*
 * CPU 1 is busy throughout; CPU 0 idle.  Pinned timer 0xf1 of CPU 0 is due
 * at j+11; at j+3 CPU 1 cancels it.  CPU 0's wake-up for it cannot be
 * taken back under any placement: one forced wake, and no model beats
 * the bound.  With @stab, CPU 0 also has pinned timer 0xf2 due at j+6:
 * it wakes then under every placement, programs past the cancelled timer,
 * and nothing is forced.  With @busy_first, CPU 0 arms 0xf1 busy and goes
 * idle in j+1: being up in that jiffy, before its idle period, does not
 * spare the wake.
 */
static void forced_cancel_trace(bool stab, bool busy_first)
{
	ck_assert_int_eq(text("#P:2"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(start(0, 100, 0xf1, 10, 0, "P"), 0);
	if (stab)
		ck_assert_int_eq(start(0, 200, 0xf2, 5, 0, "P"), 0);
	if (busy_first)
		ck_assert_int_eq(
			ev(0, 4000 + 100, "cpu_idle: state=1 cpu_id=0"), 0);
	ck_assert_int_eq(expire(1, 3 * 4000 + 100, 0xf1, "cancel"), 0);
	ck_assert_int_eq(ev(1, 30 * 4000, "cpu_idle: state=1 cpu_id=1"), 0);
	ck_assert_int_eq(ev(1, 40 * 4000, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
}

START_TEST(test_forced_wake_cancel)
{
	bool stab = _i == 1;
	struct sim_stats st;

	forced_cancel_trace(stab, _i == 2);
	for (enum timer_model m = TIMER_MODEL_PULL; m <= TIMER_MODEL_LOCAL;
	     m++) {
		ck_assert_int_eq(replay(m, &st), 0);
		ck_assert_uint_eq(st.violations, 0);
		ck_assert_uint_eq(st.lb_forced, stab ? 0 : 1);
		ck_assert_uint_eq(st.lb_pinned, stab ? 1 : 0);
		ck_assert_uint_eq(st.wakes[WAKE_LOCAL], 1);
		ck_assert_uint_eq(st.wakes_empty[WAKE_LOCAL], stab ? 0 : 1);
		ck_assert_uint_ge(st.wakes_idle, sim_bound_total(&st));
	}
}
END_TEST

/*
 * CPU 1, busy, queues pinned timer 0xf3 on idle CPU 0 at j+2 for j+12,
 * sooner than anything CPU 0 programmed: it must wake CPU 0 (an IPI)
 * before the expiry wakes it again, whatever the placement.
 */
START_TEST(test_forced_wake_remote_add)
{
	struct sim_stats st;

	ck_assert_int_eq(text("#P:2"), 0);
	ck_assert_int_eq(text("# tinykernel-replay: hz=250"), 0);
	ck_assert_int_eq(start(1, 2 * 4000 + 100, 0xf3, 10, 0, "P"), 0);
	ck_assert_int_eq(ev(1, 30 * 4000, "cpu_idle: state=1 cpu_id=1"), 0);
	ck_assert_int_eq(ev(1, 40 * 4000, "reschedule_entry: vector=253"), 0);
	ck_assert_int_eq(rp_finish(&tr, err, sizeof(err)), 0);
	for (enum timer_model m = TIMER_MODEL_PULL; m <= TIMER_MODEL_LOCAL;
	     m++) {
		ck_assert_int_eq(replay(m, &st), 0);
		ck_assert_uint_eq(st.violations, 0);
		ck_assert_uint_eq(st.wakes[WAKE_IPI], 1);
		ck_assert_uint_eq(st.lb_pinned, 1);
		ck_assert_uint_eq(st.lb_forced, 1);
		ck_assert_uint_eq(st.wakes_idle, sim_bound_total(&st));
	}
}
END_TEST

START_TEST(test_excerpt_models)
{
	static const enum timer_model models[] = {
		TIMER_MODEL_PULL,
		TIMER_MODEL_PUSH,
		TIMER_MODEL_LOCAL,
	};
	const struct rp_linux *lx = &tr.linux_;
	uint64_t irq = 0;

	ck_assert_int_eq(rp_read_file(&tr, EXCERPT), 0);
	ck_assert_uint_eq(lx->wheel + lx->empty + lx->hrtimer + lx->ipi +
				  lx->other,
			  lx->exits);
	ck_assert_uint_gt(lx->wheel, 0);
	ck_assert_uint_gt(lx->remote_expiries, 0);
	for (unsigned int m = 0; m < 3; m++) {
		struct sim_stats st;

		ck_assert_int_eq(replay(models[m], &st), 0);
		ck_assert_uint_eq(st.violations, 0);
		ck_assert_uint_eq(st.lost + st.early + st.twice, 0);
		ck_assert_uint_gt(st.expired, 100);
		ck_assert_uint_le(st.idle_10ms_ns, st.idle_1ms_ns);
		ck_assert_uint_le(st.idle_1ms_ns, st.idle_ns);
		ck_assert_uint_gt(st.idle_ns, 0);
		ck_assert_uint_gt(st.lb_global, 0);
		/* The workload's interrupts do not depend on the model. */
		if (m)
			ck_assert_uint_eq(st.wakes[WAKE_IRQ], irq);
		irq = st.wakes[WAKE_IRQ];
		if (models[m] == TIMER_MODEL_PULL) {
			ck_assert_uint_eq(st.wakes[WAKE_GLOBAL], 0);
			ck_assert_uint_gt(st.remote_expiries, 0);
		} else {
			ck_assert_uint_eq(st.wakes[WAKE_HIER], 0);
		}
		if (models[m] == TIMER_MODEL_LOCAL)
			ck_assert_uint_eq(st.remote_expiries, 0);
	}
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *p = tcase_create("parse"), *r = tcase_create("replay");

	tcase_add_checked_fixture(p, setup, teardown);
	tcase_add_test(p, test_good_lines);
	tcase_add_loop_test(p, test_bad_line, 0,
			    sizeof(bad_lines) / sizeof(*bad_lines));
	tcase_add_test(p, test_bad_order_and_cpu);
	tcase_add_test(p, test_truncated_text);
	tcase_add_test(p, test_truncated_gzip);
	tcase_add_test(p, test_nodes);
	tcase_add_test(p, test_linux_exits);
	suite_add_tcase(s, p);
	tcase_add_checked_fixture(r, setup, teardown);
	tcase_set_timeout(r, 60);
	tcase_add_test(r, test_service_exit_not_work);
	tcase_add_test(r, test_closed_loop_rearm);
	tcase_add_test(r, test_residency);
	tcase_add_test(r, test_lower_bound);
	tcase_add_loop_test(r, test_forced_wake_cancel, 0, 3);
	tcase_add_test(r, test_forced_wake_remote_add);
	tcase_add_test(r, test_excerpt_models);
	suite_add_tcase(s, r);
	return s;
}

HOST_SUITE(replay_suite);
