// SPDX-License-Identifier: GPL-2.0
/*
 * lib/tqueue.c - pairing heap of timer events (see tqueue.h).
 *
 * Invariants: the root has no siblings and prev == NULL; a node's key is
 * never smaller than its parent's; a node is queued exactly when it is the
 * root or has a prev.  Keys compare as unsigned integers.
 */
#include "lib/tqueue.h"

/*
 * Join two detached subtrees (roots with no siblings); the one with the
 * larger key becomes the first child of the other.  On equal keys @a stays
 * on top, so an added node never overtakes an equal one.
 */
static struct tq_node *tq_meld(struct tq_node *a, struct tq_node *b)
{
	struct tq_node *t;

	if (!a)
		return b;
	if (!b)
		return a;
	if (b->key < a->key) {
		t = a;
		a = b;
		b = t;
	}
	b->prev = a;
	b->next = a->child;
	if (a->child)
		a->child->prev = b;
	a->child = b;
	a->next = NULL;
	a->prev = NULL;
	return a;
}

/*
 * Meld the sibling list starting at @first into one subtree: pairs left to
 * right, then the pairs right to left (the two passes give the amortized
 * O(log n) bound).
 */
static struct tq_node *tq_merge_pairs(struct tq_node *first)
{
	struct tq_node *pairs = NULL, *root = NULL;

	while (first) {
		struct tq_node *a = first, *b = a->next, *m;

		first = b ? b->next : NULL;
		a->next = a->prev = NULL;
		if (b)
			b->next = b->prev = NULL;
		m = tq_meld(a, b);
		/* pairs is a stack: the last pair first */
		m->next = pairs;
		pairs = m;
	}
	while (pairs) {
		struct tq_node *m = pairs;

		pairs = m->next;
		m->next = NULL;
		root = tq_meld(root, m);
	}
	return root;
}

/**
 * tq_add - queue @node by node->key
 * @head: the queue
 * @node: not queued; its key set by the caller
 *
 * Returns true if @node is now the first node.
 */
bool tq_add(struct tq_head *head, struct tq_node *node)
{
	node->child = node->next = node->prev = NULL;
	node->queued = true;
	head->root = tq_meld(head->root, node);
	return head->root == node;
}

/**
 * tq_del - remove @node from @head
 * @head: the queue
 * @node: a node of @head; a node that is not queued is left alone
 *
 * Returns true if the queue still holds nodes.
 */
bool tq_del(struct tq_head *head, struct tq_node *node)
{
	struct tq_node *sub;

	if (!node->queued)
		return head->root != NULL;
	sub = tq_merge_pairs(node->child);
	if (node == head->root) {
		head->root = sub;
	} else {
		/* prev is the parent when node is its first child. */
		if (node->prev->child == node)
			node->prev->child = node->next;
		else
			node->prev->next = node->next;
		if (node->next)
			node->next->prev = node->prev;
		head->root = tq_meld(head->root, sub);
	}
	node->child = node->next = node->prev = NULL;
	node->queued = false;
	return head->root != NULL;
}

/**
 * tq_iter_next - the node after @node in a preorder walk of the heap
 * @node: a queued node
 *
 * Returns NULL after the last node.
 */
struct tq_node *tq_iter_next(struct tq_node *node)
{
	if (node->child)
		return node->child;
	while (node) {
		if (node->next)
			return node->next;
		/* Back to the first sibling, whose prev is the parent. */
		while (node->prev && node->prev->child != node)
			node = node->prev;
		node = node->prev;
	}
	return NULL;
}
