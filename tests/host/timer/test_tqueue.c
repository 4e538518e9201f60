// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/timer/test_tqueue.c - lib/tqueue.c, the groups' event queue,
 * against a brute-force model.
 */
#include <stdint.h>
#include <stdlib.h>

#include "lib/tqueue.h"
#include "tests/host/registry.h"

#define NR_NODES 500

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

struct item {
	struct tq_node node;
	unsigned int id;
};

static struct item items[NR_NODES];

/* Smallest key among queued items, brute force; UINT64_MAX if none. */
static uint64_t model_min(void)
{
	uint64_t min = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < NR_NODES; i++)
		if (tq_queued(&items[i].node) && items[i].node.key < min)
			min = items[i].node.key;
	return min;
}

static unsigned int count_iter(struct tq_head *head)
{
	struct tq_node *n;
	unsigned int count = 0;

	for (n = tq_first(head); n; n = tq_iter_next(n))
		count++;
	return count;
}

START_TEST(tq_empty_then_one)
{
	struct tq_head head;
	struct item a;

	tq_init(&head);
	ck_assert(tq_empty(&head));
	ck_assert_ptr_null(tq_first(&head));
	tq_node_init(&a.node, 42);
	ck_assert(!tq_queued(&a.node));
	ck_assert(!tq_del(&head, &a.node));
	ck_assert(tq_add(&head, &a.node));
	ck_assert(tq_queued(&a.node));
	ck_assert_ptr_eq(tq_first(&head), &a.node);
	ck_assert_ptr_eq(tq_entry(tq_first(&head), struct item, node), &a);
	ck_assert(!tq_del(&head, &a.node));
	ck_assert(!tq_queued(&a.node));
	ck_assert(tq_empty(&head));
}
END_TEST

START_TEST(tq_add_reports_new_first_and_ties_keep_order)
{
	struct tq_head head;
	struct item a, b, c;

	tq_init(&head);
	tq_node_init(&a.node, 50);
	tq_node_init(&b.node, 50);
	tq_node_init(&c.node, 10);
	ck_assert(tq_add(&head, &a.node));
	/* An equal key does not overtake the first. */
	ck_assert(!tq_add(&head, &b.node));
	ck_assert_ptr_eq(tq_first(&head), &a.node);
	ck_assert(tq_add(&head, &c.node));
	ck_assert(tq_del(&head, &c.node));
	ck_assert_uint_eq(tq_first(&head)->key, 50);
	ck_assert(tq_del(&head, tq_first(&head)));
	ck_assert(!tq_del(&head, tq_first(&head)));
}
END_TEST

START_TEST(tq_random_ops_match_model)
{
	struct tq_head head;
	unsigned int i, round, queued = 0;

	tq_init(&head);
	for (i = 0; i < NR_NODES; i++) {
		items[i].id = i;
		tq_node_init(&items[i].node, 0);
	}
	for (round = 0; round < 100000; round++) {
		struct item *it = &items[rnd() % NR_NODES];
		unsigned int op = rnd() % 8;

		if (op < 4 && !tq_queued(&it->node)) {
			it->node.key = rnd() % 5000;
			tq_add(&head, &it->node);
			queued++;
		} else if (op < 6 && tq_queued(&it->node)) {
			/* Arbitrary delete. */
			ck_assert_int_eq(tq_del(&head, &it->node), queued > 1);
			queued--;
		} else if (!tq_empty(&head)) {
			struct tq_node *first = tq_first(&head);

			ck_assert_uint_eq(first->key, model_min());
			if (op == 7) {
				tq_del(&head, first);
				queued--;
			}
		}
		if (round % 4096 == 0)
			ck_assert_uint_eq(count_iter(&head), queued);
	}
	/* Drain in order. */
	{
		uint64_t last = 0;

		while (!tq_empty(&head)) {
			struct tq_node *first = tq_first(&head);

			ck_assert_uint_ge(first->key, last);
			last = first->key;
			tq_del(&head, first);
			queued--;
		}
		ck_assert_uint_eq(queued, 0);
	}
}
END_TEST

START_TEST(tq_iter_visits_every_node_once)
{
	static unsigned int seen[64];
	struct tq_head head;
	struct tq_node *n;
	unsigned int i;

	tq_init(&head);
	for (i = 0; i < 64; i++) {
		items[i].id = i;
		tq_node_init(&items[i].node, rnd() % 10);
		tq_add(&head, &items[i].node);
		seen[i] = 0;
	}
	/* Reshape the heap a little first. */
	tq_del(&head, tq_first(&head));
	tq_del(&head, &items[10].node);
	for (n = tq_first(&head); n; n = tq_iter_next(n))
		seen[tq_entry(n, struct item, node)->id]++;
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(seen[i], tq_queued(&items[i].node) ? 1 : 0);
}
END_TEST

static Suite *tqueue_suite(void)
{
	Suite *s = suite_create("tqueue");
	TCase *tc = tcase_create("heap");

	tcase_add_test(tc, tq_empty_then_one);
	tcase_add_test(tc, tq_add_reports_new_first_and_ties_keep_order);
	tcase_add_test(tc, tq_random_ops_match_model);
	tcase_add_test(tc, tq_iter_visits_every_node_once);
	suite_add_tcase(s, tc);
	return s;
}

HOST_SUITE(tqueue_suite);
