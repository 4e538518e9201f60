/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/timer_peek.h - lockless views of the timer bases and the pull
 * hierarchy, for a watchdog dump.
 *
 * Unlike tmigr_cpu_get()/tmigr_group_get(), nothing here takes a lock: the
 * caller may be the one CPU still alive while another holds a base or
 * group lock forever.  Each field is read once (READ_ONCE); fields of one
 * view may come from different moments.  The locked flags say whether the
 * lock was held when looked at.
 */
#ifndef TIMER_TIMER_PEEK_H
#define TIMER_TIMER_PEEK_H

#include <stdbool.h>
#include <stdint.h>

enum {
	TIMER_PEEK_LOCAL,
	TIMER_PEEK_GLOBAL,
	TIMER_PEEK_DEF,
	TIMER_PEEK_NR_BASES
};

struct timer_base_peek {
	uint64_t clk;	      /* next jiffy the base collects */
	uint64_t next_expiry; /* earliest bucket, jiffies */
	bool pending;	      /* any timer queued */
	bool idle;	      /* is_idle: the CPU's NOHZ idle */
	bool recalc;	      /* next_expiry may be early */
	bool expiry_active;   /* some CPU is expiring it now */
	bool offline;	      /* timers_cpu_dead() */
	bool locked;
};

/* "local", "global" or "def" for TIMER_PEEK_*, "?" otherwise. */
const char *timer_peek_base_name(unsigned int base);
/* False for an unknown CPU or base. */
bool timer_base_peek(unsigned int cpu, unsigned int base,
		     struct timer_base_peek *v);

struct tmigr_cpu_peek {
	bool online, idle, remote, locked;
	uint8_t childmask; /* bit in the level-0 group */
	uint64_t wakeup;   /* TMIGR_NONE_NS if none */
};

struct tmigr_group_peek {
	unsigned int id, level, node;
	uint8_t childmask;	  /* bit in the parent, 0 for the root */
	uint8_t active, migrator; /* TMIGR_NONE: no migrator */
	uint16_t seq;
	uint64_t next_expiry; /* lockless hint, TMIGR_NONE_NS */
	bool locked;
};

/* False before tmigr_init() or for an unknown CPU. */
bool tmigr_cpu_peek(unsigned int cpu, struct tmigr_cpu_peek *v);
/*
 * @cpu's groups from level 0 up to the root, at most @max of them into
 * @path; returns how many (0 if @cpu has no group yet).
 */
unsigned int tmigr_cpu_path_peek(unsigned int cpu,
				 struct tmigr_group_peek *path,
				 unsigned int max);

#endif /* TIMER_TIMER_PEEK_H */
