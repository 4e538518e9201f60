/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/trace_ring.h - a trace ring buffer: one writer, lock-free readers.
 *
 * Fixed-size binary records in a caller-supplied array; when it is full
 * the oldest record is overwritten.  Record i (counted from 0 since
 * init) lives in slot i % nrecs; head is the number of records ever
 * written, so the ring holds records max(0, head - nrecs) .. head - 1,
 * and head - nrecs of them (if positive) were overwritten.
 *
 * One writer per ring (the kernel: the CPU owning it, interrupts off
 * around the write, so a handler cannot interleave), any number of
 * readers at any time.  Each record carries a sequence word that is 0
 * while it is being written and trace_ring_seq(i) once record i is
 * complete: a reader copies the record between two reads of that word
 * and keeps the copy only if both were trace_ring_seq(i), the usual
 * seqlock, written with lib/atomic.h so it holds on any memory model.  A
 * record overwritten (or half written) under a reader is thus reported
 * missing, never returned torn.
 *
 * Freestanding C: the kernel and the host tests build it.
 */
#ifndef LIB_TRACE_RING_H
#define LIB_TRACE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/trace_events.h"

struct trace_rec {
	uint64_t ts;	/* clock_ns() when written */
	uint32_t seq;	/* trace_ring_seq(index); 0 writing */
	uint16_t event; /* enum trace_event_id */
	uint16_t nargs;
	uint64_t args[TRACE_NARGS];
};

_Static_assert(sizeof(struct trace_rec) == 16 + 8 * TRACE_NARGS,
	       "trace records are fixed-size, without padding");

struct trace_ring {
	struct trace_rec *recs;
	uint32_t nrecs; /* capacity, >= 1 */
	uint64_t head;	/* records ever written */
};

/* Never 0, and distinct for any nrecs (<= 2^31) consecutive records. */
static inline uint32_t trace_ring_seq(uint64_t idx)
{
	return (uint32_t)(idx % 0xffffffffu) + 1;
}

int trace_ring_init(struct trace_ring *r, void *mem, size_t bytes);
void trace_ring_write(struct trace_ring *r, uint64_t ts, unsigned int event,
		      const uint64_t *args, unsigned int n);
uint64_t trace_ring_head(const struct trace_ring *r);
uint64_t trace_ring_oldest(const struct trace_ring *r, uint64_t head);
bool trace_ring_read(const struct trace_ring *r, uint64_t idx,
		     struct trace_rec *out);

#endif /* LIB_TRACE_RING_H */
