/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer/timer_migration_internal.h - the hierarchy's data structures,
 * shared by the walks (timer_migration.c) and the setup and views
 * (timer_migration_setup.c).  Not for users of timer/.
 */
#ifndef TIMER_TIMER_MIGRATION_INTERNAL_H
#define TIMER_TIMER_MIGRATION_INTERNAL_H

#include "lib/tqueue.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

/* More levels than 2^18 CPUs on 2^18 nodes could ever need. */
#define TMIGR_MAX_LEVELS  16
#define TMIGR_GROUP_SHIFT 3 /* log2(TMIGR_CHILDS_PER_GROUP) */

union tmigr_state {
	uint32_t state;
	struct {
		uint8_t active;	  /* bit per active child */
		uint8_t migrator; /* one active child's bit, or NONE */
		uint16_t seq;	  /* bumped on every change */
	};
};

_Static_assert(sizeof(union tmigr_state) == sizeof(uint32_t),
	       "tmigr_state must be one word for cmpxchg");
_Static_assert(TMIGR_CHILDS_PER_GROUP == 1 << TMIGR_GROUP_SHIFT &&
		       TMIGR_CHILDS_PER_GROUP <= 8,
	       "one bit per child in a u8");

/*
 * An event of an idle CPU or group, queued in its parent's queue.  Key and
 * queue links are changed under the parent's lock (and, for a CPU event,
 * the CPU's tmigr lock); ignore is set without the parent's lock.
 */
struct tmigr_event {
	struct tq_node nextevt; /* key: expiry in ns */
	unsigned int cpu;	/* CPU the event belongs to */
	bool ignore;		/* the owner is active again */
};

struct tmigr_group {
	spinlock_t lock;	     /* events, groupevt of the children */
	struct tmigr_group *parent;  /* release/acquire; set once */
	uint32_t migr_state;	     /* union tmigr_state; cmpxchg */
	uint8_t childmask;	     /* this group's bit in parent */
	struct tq_head events;	     /* idle children's first events */
	uint64_t next_expiry;	     /* first event; lockless reads */
	struct tmigr_event groupevt; /* this group's first, in parent */
	unsigned int id;
	unsigned int level;
	unsigned int node; /* TMIGR_NO_NODE from crossnode up */
	/* Setup only (tmigr_setup_lock): */
	unsigned int num_children;
	unsigned int num_cores;			   /* level 0 with SMT */
	unsigned int cpus[TMIGR_CHILDS_PER_GROUP]; /* level 0 */
	struct tmigr_group *level_next;
};

struct tmigr_cpu {
	spinlock_t lock;
	bool online;		     /* part of the hierarchy */
	bool idle;		     /* inactive in the hierarchy */
	bool remote;		     /* a migrator handles its timers */
	bool isolated;		     /* isolcpus=: never active in a group
					 * (timer_migration_isolated.c) */
	uint8_t childmask;	     /* bit in tmgroup */
	struct tmigr_group *tmgroup; /* level-0 group */
	struct tmigr_event cpuevt;   /* first global event while idle */
	uint64_t wakeup;	     /* first event it must wake for, as
					 * the last CPU or the one that
					 * handled remote timers; NONE */
	bool offered;		     /* wakeup is its own timer's, offered
					 * (tmigr_wake_offer()); set and
					 * cleared with wakeup */
	/*
	 * Its entry among the armed CPUs (tmigr_wake.c).  Written by this
	 * CPU only, under wake_lock; deciders read it and set relied under
	 * wake_lock, the last lock in the order.
	 */
	spinlock_t wake_lock;
	bool armed;	       /* the entry is valid */
	bool armed_own;	       /* it is an offer: armed_exp is a
					 * jiffy start */
	bool relied;	       /* a decider relied on it since this
					 * CPU last decided at the root */
	uint64_t armed_exp;    /* = wakeup while armed */
	uint64_t prior_wakeup; /* before the offer; with offered */
	bool prior_armed;      /* in the table before the offer */
};

/* Pre: tmc->lock held.  Any wakeup but an offer's (tmigr_wake.c). */
static inline void tmigr_set_wakeup(struct tmigr_cpu *tmc, uint64_t wakeup)
{
	WRITE_ONCE(tmc->wakeup, wakeup);
	tmc->offered = false;
}

/*
 * What a walk carries from level to level.  @parent is read once per
 * step by the walker, before the group's callback, and is where the walk
 * goes next (docs/races.md, "Parent pointer read twice").
 */
struct tmigr_walk {
	struct tmigr_cpu *tmc;	    /* CPU of the walk */
	uint64_t nextexp;	    /* CPU's event handed in */
	uint64_t firstexp;	    /* out: event the CPU must serve */
	struct tmigr_event *evt;    /* the CPU's event */
	struct tmigr_group *parent; /* of the group being visited */
	uint8_t childmask;	    /* child's bit in that group */
	bool remote;		    /* update after a remote expiry */
	bool group_active;	    /* out: group state under its lock */
	bool decided;		    /* out: firstexp decided at the idle
					 * root (tmigr_wake_decide()) */
	bool leaving;		    /* the CPU goes offline, won't wake */
	uint64_t now;		    /* ns */
	uint64_t basej;		    /* jiffies when @now was read */
};

typedef bool (*tmigr_up_fn)(struct tmigr_group *group,
			    struct tmigr_group *child, struct tmigr_walk *data);

/* Set up by tmigr_init() (timer_migration_setup.c). */
extern struct tmigr_cpu *tmigr_cpus;
extern unsigned int tmigr_nr_cpus;
extern bool tmigr_ready;
/* tmigr_set_inactive_up_mainline() (timer_migration_setup.c). */
extern bool tmigr_inactive_up_mainline;

static inline union tmigr_state tmigr_read_state(struct tmigr_group *group)
{
	union tmigr_state s;

	s.state = READ_ONCE(group->migr_state);
	return s;
}

/* The lowest bit of @active, or TMIGR_NONE if none. */
static inline uint8_t tmigr_first_active(uint8_t active)
{
	return active ? (uint8_t)(1u << __builtin_ctz(active)) : TMIGR_NONE;
}

bool tmigr_update_events(struct tmigr_group *group, struct tmigr_group *child,
			 struct tmigr_walk *data);
void tmigr_walk_cpu(tmigr_up_fn up, struct tmigr_walk *data,
		    struct tmigr_cpu *tmc);

/* Isolated CPUs (timer_migration_isolated.c).  Pre: tmc->lock held. */
void tmigr_isolated_activate(struct tmigr_cpu *tmc);
uint64_t tmigr_isolated_queue(struct tmigr_cpu *tmc, uint64_t nextexp);

/* tmigr_wake.c: which idle CPU wakes for the idle hierarchy. */
/* Bit per CPU with a valid entry, (tmigr_nr_cpus + 63) / 64 words. */
extern uint64_t *tmigr_armed_mask;
uint64_t tmigr_wake_decide(struct tmigr_cpu *tmc, uint64_t first, bool record);
void tmigr_wake_forget(struct tmigr_cpu *tmc);
uint64_t tmigr_wake_settle(struct tmigr_cpu *tmc, uint64_t firstexp);
uint64_t tmigr_wake_offer(struct tmigr_cpu *tmc, uint64_t own);
uint64_t tmigr_wake_redecide(struct tmigr_cpu *tmc);

#endif /* TIMER_TIMER_MIGRATION_INTERNAL_H */
