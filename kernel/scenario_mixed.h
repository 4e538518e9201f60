/*
 * kernel/scenario_mixed.h - scenario=mixed: random busy/idle CPUs arming,
 * re-arming and cancelling timers of every kind (kernel/scenario_mixed.c).
 */
#ifndef KERNEL_SCENARIO_MIXED_H
#define KERNEL_SCENARIO_MIXED_H

#include "kernel/scenario_opts.h"

/* Run it; returns the number of failed self-checks. */
unsigned scenario_mixed_run(const struct scenario_opts *o);

#endif
