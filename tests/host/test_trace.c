// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_trace.c - lib/trace_ring.c (the per-CPU trace buffer)
 * and lib/trace_events.c (event names, trace= parsing, formatting).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/registry.h"
#include "lib/errno.h"
#include "lib/trace_ring.h"

/* ---- the ring ---- */

/* Record @i's contents, so that any mix-up of two records shows. */
static void rec_args(uint64_t i, uint64_t *a)
{
	for (unsigned int k = 0; k < TRACE_NARGS; k++)
		a[k] = i * 1000003u + k;
}

static void write_n(struct trace_ring *r, uint64_t from, uint64_t to)
{
	uint64_t a[TRACE_NARGS];

	for (uint64_t i = from; i < to; i++) {
		rec_args(i, a);
		trace_ring_write(r, 5000 + i,
				 (unsigned int)(i % TRACE_NR_EVENTS), a,
				 (unsigned int)(i % (TRACE_NARGS + 1)));
	}
}

/* Record @i is readable and exactly what write_n() wrote. */
static void assert_rec(const struct trace_ring *r, uint64_t i)
{
	struct trace_rec out;
	uint64_t a[TRACE_NARGS];
	unsigned int n = (unsigned int)(i % (TRACE_NARGS + 1));

	ck_assert_msg(trace_ring_read(r, i, &out), "record %lu unreadable",
		      (unsigned long)i);
	rec_args(i, a);
	ck_assert_uint_eq(out.ts, 5000 + i);
	ck_assert_uint_eq(out.event, i % TRACE_NR_EVENTS);
	ck_assert_uint_eq(out.nargs, n);
	ck_assert_uint_eq(out.seq, trace_ring_seq(i));
	for (unsigned int k = 0; k < TRACE_NARGS; k++)
		ck_assert_uint_eq(out.args[k], k < n ? a[k] : 0);
}

START_TEST(ring_init_sizes)
{
	static struct trace_rec mem[5];
	struct trace_ring r;

	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem[0])), 0);
	ck_assert_uint_eq(r.nrecs, 1);
	/* A part of a record is left unused. */
	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem) - 1), 0);
	ck_assert_uint_eq(r.nrecs, 4);
	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem)), 0);
	ck_assert_uint_eq(r.nrecs, 5);
	ck_assert_uint_eq(trace_ring_head(&r), 0);
	/* Too small, misaligned, missing. */
	ck_assert_int_lt(trace_ring_init(&r, mem, sizeof(mem[0]) - 1), 0);
	ck_assert_int_lt(trace_ring_init(&r, (char *)mem + 4, sizeof(mem) - 8),
			 0);
	ck_assert_int_lt(trace_ring_init(&r, NULL, sizeof(mem)), 0);
}
END_TEST

START_TEST(ring_empty_reads_nothing)
{
	struct trace_rec mem[4], out;
	struct trace_ring r;

	memset(mem, 0xa5, sizeof(mem)); /* init must clear the seqs */
	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem)), 0);
	for (uint64_t i = 0; i < 8; i++)
		ck_assert(!trace_ring_read(&r, i, &out));
	ck_assert_uint_eq(trace_ring_oldest(&r, 0), 0);
}
END_TEST

/* Below capacity everything is kept, in order. */
START_TEST(ring_keeps_all_until_full)
{
	struct trace_rec mem[7];
	struct trace_ring r;

	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem)), 0);
	write_n(&r, 0, 7);
	ck_assert_uint_eq(trace_ring_head(&r), 7);
	ck_assert_uint_eq(trace_ring_oldest(&r, 7), 0);
	for (uint64_t i = 0; i < 7; i++)
		assert_rec(&r, i);
}
END_TEST

/*
 * Wrapping: a capacity that is no power of two, several times round.
 * Exactly the newest nrecs records are readable, each intact; every
 * older one is reported gone, none is returned with another's contents.
 */
START_TEST(ring_wraps_without_corrupting)
{
	struct trace_rec mem[7];
	struct trace_ring r;
	struct trace_rec out;
	uint64_t head;

	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem)), 0);
	write_n(&r, 0, 7 * 5 + 3);
	head = trace_ring_head(&r);
	ck_assert_uint_eq(head, 38);
	ck_assert_uint_eq(trace_ring_oldest(&r, head), 31);
	for (uint64_t i = 0; i < 31; i++)
		ck_assert_msg(!trace_ring_read(&r, i, &out),
			      "overwritten record %lu read back",
			      (unsigned long)i);
	for (uint64_t i = 31; i < head; i++)
		assert_rec(&r, i);
	/* And on: the window moves by one per record. */
	write_n(&r, head, head + 1);
	ck_assert(!trace_ring_read(&r, 31, &out));
	for (uint64_t i = 32; i <= head; i++)
		assert_rec(&r, i);
}
END_TEST

START_TEST(ring_of_one_record)
{
	struct trace_rec mem[1], out;
	struct trace_ring r;

	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem)), 0);
	write_n(&r, 0, 3);
	ck_assert(!trace_ring_read(&r, 1, &out));
	assert_rec(&r, 2);
	ck_assert_uint_eq(trace_ring_oldest(&r, 3), 2);
}
END_TEST

/* A slot being written (seq 0) is not read, and reads again after. */
START_TEST(ring_half_written_record_is_skipped)
{
	struct trace_rec mem[4], out;
	struct trace_ring r;

	ck_assert_int_eq(trace_ring_init(&r, mem, sizeof(mem)), 0);
	write_n(&r, 0, 4);
	mem[2].seq = 0; /* what the writer stores first */
	mem[2].args[0] = 77;
	ck_assert(!trace_ring_read(&r, 2, &out));
	assert_rec(&r, 3);
	/* Its next occupant is record 6, not 2. */
	write_n(&r, 4, 7);
	ck_assert(!trace_ring_read(&r, 2, &out));
	assert_rec(&r, 6);
}
END_TEST

/* Every 2^32 - 1 records the sequence repeats; 0 is never used. */
START_TEST(ring_seq_is_never_zero)
{
	ck_assert_uint_eq(trace_ring_seq(0), 1);
	ck_assert_uint_eq(trace_ring_seq(0xfffffffeu), 0xffffffffu);
	ck_assert_uint_eq(trace_ring_seq(0xffffffffu), 1);
	ck_assert_uint_ne(trace_ring_seq(0xffffffffu + 5ull), 0);
}
END_TEST

/*
 * One writer, one reader at the same time (the dump against a CPU still
 * tracing): the reader may miss records, never accept a torn one.
 */
#define RACE_RECS   16
#define RACE_WRITES 300000u

struct race {
	struct trace_ring ring;
	struct trace_rec mem[RACE_RECS];
	int done;
	unsigned long accepted, refused;
};

static void *race_writer(void *arg)
{
	struct race *x = arg;
	uint64_t a[TRACE_NARGS];

	for (uint64_t i = 0; i < RACE_WRITES; i++) {
		rec_args(i, a);
		trace_ring_write(&x->ring, 5000 + i, 3, a, TRACE_NARGS);
	}
	__atomic_store_n(&x->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

START_TEST(ring_reader_never_sees_a_torn_record)
{
	static struct race x;
	pthread_t w;
	struct trace_rec out;
	uint64_t a[TRACE_NARGS];

	memset(&x, 0, sizeof(x));
	ck_assert_int_eq(trace_ring_init(&x.ring, x.mem, sizeof(x.mem)), 0);
	ck_assert_int_eq(pthread_create(&w, NULL, race_writer, &x), 0);
	while (!__atomic_load_n(&x.done, __ATOMIC_ACQUIRE)) {
		uint64_t head = trace_ring_head(&x.ring);

		for (uint64_t i = trace_ring_oldest(&x.ring, head); i < head;
		     i++) {
			if (!trace_ring_read(&x.ring, i, &out)) {
				x.refused++;
				continue;
			}
			x.accepted++;
			rec_args(i, a);
			ck_assert_uint_eq(out.ts, 5000 + i);
			for (unsigned int k = 0; k < TRACE_NARGS; k++)
				ck_assert_uint_eq(out.args[k], a[k]);
		}
	}
	pthread_join(w, NULL);
	ck_assert_uint_eq(trace_ring_head(&x.ring), RACE_WRITES);
	for (uint64_t i = RACE_WRITES - RACE_RECS; i < RACE_WRITES; i++) {
		ck_assert(trace_ring_read(&x.ring, i, &out));
		ck_assert_uint_eq(out.ts, 5000 + i);
	}
	ck_assert_uint_gt(x.accepted, 0);
}
END_TEST

/* ---- the events ---- */

static int parse(const char *s, uint32_t *mask)
{
	return trace_parse_events(s, strlen(s), mask);
}

START_TEST(events_parse)
{
	uint32_t m = 0x5a5a;

	ck_assert_int_eq(parse("all", &m), 0);
	ck_assert_uint_eq(m, TRACE_ALL_MASK);
	ck_assert_int_eq(parse("none", &m), 0);
	ck_assert_uint_eq(m, 0);
	ck_assert_int_eq(parse("timer_start", &m), 0);
	ck_assert_uint_eq(m, TRACE_BIT(TRACE_timer_start));
	ck_assert_int_eq(parse("idle_exit,ipi_send,idle_exit", &m), 0);
	ck_assert_uint_eq(m, TRACE_BIT(TRACE_idle_exit) |
				     TRACE_BIT(TRACE_ipi_send));
	ck_assert_int_eq(parse("ipi_*", &m), 0);
	ck_assert_uint_eq(m, TRACE_BIT(TRACE_ipi_send) |
				     TRACE_BIT(TRACE_ipi_receive));
	ck_assert_int_eq(parse("tmigr_*", &m), 0);
	ck_assert_uint_eq(m, TRACE_BIT(TRACE_tmigr_handle_remote + 1) - 1);
	ck_assert_int_eq(parse("*", &m), 0);
	ck_assert_uint_eq(m, TRACE_ALL_MASK);
	/* A prefix is not a name, without the star. */
	m = 7;
	ck_assert_int_eq(parse("tmigr", &m), -EINVAL);
	ck_assert_int_eq(parse("timer_start,bogus", &m), -EINVAL);
	ck_assert_int_eq(parse("", &m), -EINVAL);
	ck_assert_int_eq(parse(",", &m), -EINVAL);
	ck_assert_int_eq(parse("timer_start,", &m), -EINVAL);
	ck_assert_int_eq(parse("all,timer_start", &m), -EINVAL);
	ck_assert_int_eq(parse("nope*", &m), -EINVAL);
	ck_assert_uint_eq(m, 7);
	/* Length-delimited. */
	ck_assert_int_eq(trace_parse_events("ipi_sendXYZ", 8, &m), 0);
	ck_assert_uint_eq(m, TRACE_BIT(TRACE_ipi_send));
}
END_TEST

/* Names unique, formats with exactly nargs fields. */
START_TEST(events_table_is_consistent)
{
	for (unsigned int i = 0; i < TRACE_NR_EVENTS; i++) {
		const char *f = trace_event_format(i);
		unsigned int fields = 0;

		ck_assert_ptr_nonnull(trace_event_name(i));
		ck_assert_ptr_nonnull(f);
		for (const char *p = f; *p; p++)
			fields += *p == '%';
		ck_assert_msg(fields == trace_event_nargs(i),
			      "%s: %u fields, %u args", trace_event_name(i),
			      fields, trace_event_nargs(i));
		ck_assert_uint_le(trace_event_nargs(i), TRACE_NARGS);
		for (unsigned int j = 0; j < i; j++)
			ck_assert_str_ne(trace_event_name(i),
					 trace_event_name(j));
	}
	ck_assert_ptr_null(trace_event_name(TRACE_NR_EVENTS));
	ck_assert_uint_eq(trace_event_nargs(TRACE_NR_EVENTS), 0);
	/* Linux's 13 timer_migration events, then the wheel's. */
	ck_assert_str_eq(trace_event_name(TRACE_tmigr_group_set),
			 "tmigr_group_set");
	ck_assert_uint_eq(TRACE_timer_start, 13);
}
END_TEST

START_TEST(events_format)
{
	char buf[256];
	uint64_t a[TRACE_NARGS] = { 3, TRACE_INT(-1), UINT64_MAX };
	uint64_t b[TRACE_NARGS] = { 1, 0xec, 4000 };
	uint64_t c[TRACE_NARGS] = {
		0xffffffff80101234ull, 0x10, 7, 8, 9, 2, 0x200
	};
	int n;

	n = trace_format_args(buf, sizeof(buf), TRACE_tmigr_cpu_idle, a, 3);
	ck_assert_str_eq(buf, "cpu=3 parent=-1 nextevt=none");
	ck_assert_int_eq(n, (int)strlen(buf));
	trace_format_args(buf, sizeof(buf), TRACE_idle_exit, b, 3);
	ck_assert_str_eq(buf, "reason=ipi vector=0xec idle_ns=4000");
	b[0] = 9; /* beyond the names: the number */
	trace_format_args(buf, sizeof(buf), TRACE_idle_exit, b, 3);
	ck_assert_str_eq(buf, "reason=9 vector=0xec idle_ns=4000");
	trace_format_args(buf, sizeof(buf), TRACE_timer_start, c, 7);
	ck_assert_str_eq(buf, "timer=0xffffffff80101234 "
			      "function=0x0000000000000010 expires=7 "
			      "bucket_expiry=8 now=9 base_cpu=2 flags=0x200");
	a[2] = 123456789;
	trace_format_args(buf, sizeof(buf), TRACE_tmigr_cpu_idle, a, 2);
	ck_assert_str_eq(buf, "cpu=3 parent=-1 nextevt=0"); /* missing: 0 */
	/* Cut to the buffer, but the full length is returned. */
	n = trace_format_args(buf, 10, TRACE_tmigr_cpu_idle, a, 3);
	ck_assert_str_eq(buf, "cpu=3 par");
	ck_assert_int_eq(n, (int)strlen("cpu=3 parent=-1 nextevt=123456789"));
	ck_assert_int_eq(
		trace_format_args(buf, sizeof(buf), TRACE_NR_EVENTS, a, 3), -1);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *ring = tcase_create("ring");
	TCase *events = tcase_create("events");

	tcase_add_test(ring, ring_init_sizes);
	tcase_add_test(ring, ring_empty_reads_nothing);
	tcase_add_test(ring, ring_keeps_all_until_full);
	tcase_add_test(ring, ring_wraps_without_corrupting);
	tcase_add_test(ring, ring_of_one_record);
	tcase_add_test(ring, ring_half_written_record_is_skipped);
	tcase_add_test(ring, ring_seq_is_never_zero);
	tcase_add_test(ring, ring_reader_never_sees_a_torn_record);
	tcase_set_timeout(ring, 60);
	suite_add_tcase(s, ring);
	tcase_add_test(events, events_parse);
	tcase_add_test(events, events_table_is_consistent);
	tcase_add_test(events, events_format);
	suite_add_tcase(s, events);
	return s;
}

HOST_SUITE(trace_suite);
