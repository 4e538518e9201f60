// SPDX-License-Identifier: GPL-2.0
/*
 * lib/trace_ring.c - the trace ring buffer (lib/trace_ring.h).
 */
#include "lib/trace_ring.h"
#include "lib/atomic.h"
#include "lib/errno.h"

#define RING_MAX_RECS (1u << 31)

/**
 * trace_ring_init - make @mem an empty ring
 * @r: the ring
 * @mem: zeroed or not, 8-byte aligned, kept while the ring is used
 * @bytes: size of @mem; it holds bytes / sizeof(struct trace_rec) records
 *	(at most 2^31)
 *
 * Return: 0, or -EINVAL if @mem holds no record or is misaligned.
 */
int trace_ring_init(struct trace_ring *r, void *mem, size_t bytes)
{
	size_t n = bytes / sizeof(struct trace_rec);

	if (!mem || ((uintptr_t)mem & 7) || n == 0)
		return -EINVAL;
	if (n > RING_MAX_RECS)
		n = RING_MAX_RECS;
	r->recs = mem;
	r->nrecs = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		WRITE_ONCE(r->recs[i].seq, 0);
	WRITE_ONCE(r->head, 0);
	return 0;
}

/**
 * trace_ring_write - append a record, overwriting the oldest when full
 * @r: the ring; the caller is its only writer right now
 * @ts: timestamp
 * @event: event id
 * @args: arguments
 * @n: how many (more than TRACE_NARGS are cut; the rest read as 0)
 */
void trace_ring_write(struct trace_ring *r, uint64_t ts, unsigned int event,
		      const uint64_t *args, unsigned int n)
{
	uint64_t idx = READ_ONCE(r->head);
	struct trace_rec *rec = &r->recs[idx % r->nrecs];
	unsigned int i;

	if (n > TRACE_NARGS)
		n = TRACE_NARGS;
	/* Readers of the slot's previous record see it go away first. */
	WRITE_ONCE(rec->seq, 0);
	smp_wmb();
	WRITE_ONCE(rec->ts, ts);
	WRITE_ONCE(rec->event, (uint16_t)event);
	WRITE_ONCE(rec->nargs, (uint16_t)n);
	for (i = 0; i < TRACE_NARGS; i++)
		WRITE_ONCE(rec->args[i], i < n ? args[i] : 0);
	smp_store_release(&rec->seq, trace_ring_seq(idx));
	smp_store_release(&r->head, idx + 1);
}

/* Records ever written; those below trace_ring_oldest() are gone. */
uint64_t trace_ring_head(const struct trace_ring *r)
{
	return smp_load_acquire(&r->head);
}

/* Index of the oldest record still in the ring when head was @head. */
uint64_t trace_ring_oldest(const struct trace_ring *r, uint64_t head)
{
	return head > r->nrecs ? head - r->nrecs : 0;
}

/**
 * trace_ring_read - copy record @idx, if it is still there and whole
 * @r: the ring
 * @idx: record index, below trace_ring_head()
 * @out: the copy
 *
 * Return: true with *@out filled, false if record @idx was overwritten or
 * is being written (or was never written).
 */
bool trace_ring_read(const struct trace_ring *r, uint64_t idx,
		     struct trace_rec *out)
{
	const struct trace_rec *rec = &r->recs[idx % r->nrecs];
	uint32_t want = trace_ring_seq(idx);
	unsigned int i;

	if (smp_load_acquire(&rec->seq) != want)
		return false;
	out->ts = READ_ONCE(rec->ts);
	out->event = READ_ONCE(rec->event);
	out->nargs = READ_ONCE(rec->nargs);
	for (i = 0; i < TRACE_NARGS; i++)
		out->args[i] = READ_ONCE(rec->args[i]);
	/* The copy is before the re-check (pairs with the writer's fence). */
	smp_rmb();
	if (READ_ONCE(rec->seq) != want)
		return false;
	out->seq = want;
	return true;
}
