// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/fuzz/fuzz_replay.c - libFuzzer harness for the replay's
 * trace parser (tests/host/sim/replay_parse.c, replay_class.c and
 * rp_read_buf() in replay_read.c).
 *
 * Input: the text of a trace file.  Either it is refused with a reason,
 * or what rp_finish() made of it holds together: CPUs and nodes in range,
 * every CPU in a node, every event's CPU below the count and its jiffy in
 * the trace's span, and Linux's idle exits summing over their causes.
 */
#include "tests/host/fuzz/fuzz_util.h"
#include "tests/host/sim/replay.h"

static struct rp_trace tr;

static void check_trace(void)
{
	const struct rp_linux *lx = &tr.linux_;

	FUZZ_CHECK(tr.cpus >= 1 && tr.cpus <= RP_MAX_CPUS);
	FUZZ_CHECK(tr.nodes >= 1 && tr.nodes <= RP_MAX_NODES &&
		   tr.nodes <= tr.cpus);
	FUZZ_CHECK(tr.hz >= 1);
	for (unsigned int c = 0; c < tr.cpus; c++)
		FUZZ_CHECK(tr.node_of[c] < tr.nodes);
	for (size_t i = 0; i < tr.nr_ev; i++) {
		const struct rp_event *e = &tr.ev[i];

		FUZZ_CHECK(e->cpu < tr.cpus);
		/* Mod 2^64, as the simulator's jiffies (it replays from j0). */
		FUZZ_CHECK((int64_t)(e->sim_j - tr.j0) > 0 &&
			   (int64_t)(tr.last_j - e->sim_j) >= 0);
		FUZZ_CHECK(e->timer == RP_NONE || e->timer < tr.nr_timers);
		if (e->type == RP_EXP_EXIT && e->target != RP_NONE)
			FUZZ_CHECK(e->target < i &&
				   tr.ev[e->target].type == RP_START &&
				   tr.ev[e->target].timer == e->timer);
	}
	FUZZ_CHECK(lx->wheel + lx->empty + lx->hrtimer + lx->ipi + lx->other ==
		   lx->exits);
	FUZZ_CHECK(lx->idle_10ms_ns <= lx->idle_1ms_ns &&
		   lx->idle_1ms_ns <= lx->idle_ns);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1), err[RP_ERR_LEN];

	if (!copy)
		abort();
	memcpy(copy, data, size);
	rp_trace_init(&tr, "fuzz");
	if (rp_read_buf(&tr, copy, size, err, sizeof(err)) == 0)
		check_trace();
	else
		FUZZ_CHECK_STR(err, sizeof(err));
	rp_trace_free(&tr);
	free(copy);
	return 0;
}
