/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/tqueue.h - an intrusive queue of timer events ordered by a 64-bit key.
 *
 * A pairing heap: the node with the smallest key is the root, every other
 * node hangs in the child list of a node with a key that is not larger.
 * Adding is O(1), taking the first node out or deleting any node is
 * O(log n) amortized; no operation allocates.  Nodes with equal keys
 * leave in no particular order.
 *
 * Freestanding C (the kernel and the host both build it); no locking: the
 * owner of the queue serialises every call.
 */
#ifndef LIB_TQUEUE_H
#define LIB_TQUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tq_node {
	uint64_t key;
	struct tq_node *child; /* first child */
	struct tq_node *next;  /* next sibling */
	struct tq_node *prev;  /* previous sibling, or parent if first */
	bool queued;
};

struct tq_head {
	struct tq_node *root;
};

/* The structure that embeds @node as @member. */
#define tq_entry(node, type, member) \
	((type *)((char *)(node)-offsetof(type, member)))

static inline void tq_init(struct tq_head *head)
{
	head->root = NULL;
}

static inline void tq_node_init(struct tq_node *node, uint64_t key)
{
	node->key = key;
	node->child = node->next = node->prev = NULL;
	node->queued = false;
}

static inline bool tq_queued(const struct tq_node *node)
{
	return node->queued;
}

static inline bool tq_empty(const struct tq_head *head)
{
	return !head->root;
}

/* The node with the smallest key, NULL if the queue is empty. */
static inline struct tq_node *tq_first(const struct tq_head *head)
{
	return head->root;
}

bool tq_add(struct tq_head *head, struct tq_node *node);
bool tq_del(struct tq_head *head, struct tq_node *node);

/*
 * Visit every queued node once, in no particular order (preorder of the
 * heap): for (n = tq_first(h); n; n = tq_iter_next(n)).  The queue must
 * not change during the visit.
 */
struct tq_node *tq_iter_next(struct tq_node *node);

#endif /* LIB_TQUEUE_H */
