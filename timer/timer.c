// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer.c - per-CPU timer wheels with local, global and deferrable bases.
 *
 * Each CPU owns three bases:
 *
 *   BASE_LOCAL   pinned timers: they expire on this CPU, which must wake for
 *                them itself;
 *   BASE_GLOBAL  movable timers: when the CPU idles, another CPU may expire
 *                them (the pull hierarchy, via the *_remote() functions);
 *   BASE_DEF     deferrable timers: they never wake an idle CPU and never
 *                appear in struct timer_events.
 *
 * A timer goes on the calling CPU's base chosen by its flags (deferrable ->
 * BASE_DEF, else pinned -> BASE_LOCAL, else BASE_GLOBAL); only add_timer_on()
 * picks another CPU.
 *
 * The wheel does not cascade.  It has LVL_DEPTH levels of 64 buckets; a
 * bucket of level n covers 8^n jiffies, so a timer is placed by its distance
 * from base->clk at enqueue and its expiry is rounded up to its bucket's
 * boundary: it never fires early and at most one level granularity late.
 * Far timers go to the last level with the largest granularity, and
 * anything beyond WHEEL_TIMEOUT_CUTOFF is clamped to WHEEL_TIMEOUT_MAX from
 * now.  The tick rate is chosen at boot, so the depth is too: 8 levels at
 * HZ <= 100 (that already spans two weeks), 9 above.
 *
 * Level, bucket granularity and the distances it takes, per HZ:
 *
 * HZ 1000, 1 jiffy = 1 ms, 9 levels, cutoff ~12 days
 *  lvl  granularity          range
 *   0          1 ms            0 ms -           62 ms
 *   1          8 ms           63 ms -          503 ms
 *   2         64 ms          504 ms -         4031 ms
 *   3        512 ms         4032 ms -        32255 ms  (~32 s)
 *   4       4096 ms        32256 ms -       258047 ms  (~4 min)
 *   5      32768 ms       258048 ms -      2064383 ms  (~34 min)
 *   6     262144 ms      2064384 ms -     16515071 ms  (~4.5 h)
 *   7    2097152 ms     16515072 ms -    132120575 ms  (~1.5 days)
 *   8   16777216 ms    132120576 ms -   1056964607 ms  (~12 days)
 *
 * HZ 250, 1 jiffy = 4 ms, 9 levels, cutoff ~48 days
 *   0          4 ms            0 ms -          248 ms
 *   1         32 ms          252 ms -         2012 ms
 *   2        256 ms         2016 ms -        16124 ms
 *   3       2048 ms        16128 ms -       129020 ms  (~2 min)
 *   4      16384 ms       129024 ms -      1032188 ms  (~17 min)
 *   5     131072 ms      1032192 ms -      8257532 ms  (~2.3 h)
 *   6    1048576 ms      8257536 ms -     66060284 ms  (~18 h)
 *   7    8388608 ms     66060288 ms -    528482300 ms  (~6 days)
 *   8   67108864 ms    528482304 ms -   4227858428 ms  (~48 days)
 *
 * HZ 100, 1 jiffy = 10 ms, 8 levels, cutoff ~15 days
 *   0         10 ms            0 ms -          620 ms
 *   1         80 ms          630 ms -         5030 ms
 *   2        640 ms         5040 ms -        40310 ms
 *   3       5120 ms        40320 ms -       322550 ms  (~5 min)
 *   4      40960 ms       322560 ms -      2580470 ms  (~43 min)
 *   5     327680 ms      2580480 ms -     20643830 ms  (~5.7 h)
 *   6    2621440 ms     20643840 ms -    165150710 ms  (~46 h)
 *   7   20971520 ms    165150720 ms -   1321205750 ms  (~15 days)
 *
 * Locking: each base has one lock.  A timer is reached through the base its
 * flags name; while it moves between bases it carries TIMER_MIGRATING and
 * lock_timer_base() waits.  Expiry drops the lock around each callback with
 * base->running_timer set, so a callback may re-arm or delete its own timer
 * and timer_delete_sync() can wait for it.  Two bases of one CPU are only
 * ever held together as local then global; the same base of two CPUs only
 * by timers_cpu_dead(), lower CPU first.
 *
 * An offline CPU's bases (timer_hotplug.c) hold no timer and take none:
 * the placement paths below check base->offline under the base lock and
 * fall back to the calling CPU.
 */
#include "lib/time.h"
#include "timer/timer_internal.h"
#include "timer/timer_migration.h"
#include "timer/timer_trace.h"
#include "timer_env.h"

/* Unformatted: clang-format 14 reads "(n) * X" as a cast of "*X". */
/* clang-format off */
#define LVL_CLK_SHIFT	3
#define LVL_CLK_DIV	(1u << LVL_CLK_SHIFT)
#define LVL_CLK_MASK	(LVL_CLK_DIV - 1)
#define LVL_SHIFT(n)	((n) * LVL_CLK_SHIFT)
#define LVL_GRAN(n)	(1ull << LVL_SHIFT(n))
/* First distance (jiffies) that lands in level n, n >= 1. */
#define LVL_START(n)	((uint64_t)(LVL_SIZE - 1) << (((n) - 1) * LVL_CLK_SHIFT))

#define LVL_MASK	(LVL_SIZE - 1)
#define LVL_OFFS(n)	((n) * LVL_SIZE)
/* clang-format on */

enum {
	MOD_TIMER_PENDING_ONLY = 1,
	MOD_TIMER_REDUCE = 2,
	MOD_TIMER_NOTPENDING = 4,
};

struct timer_cpu *timer_cpus;
unsigned int timer_nr_cpus;
enum timer_model timer_model = TIMER_MODEL_PULL;
/* Linux 6.8's timers_migration_enabled: the sysctl and nohz active. */
static bool timer_migration = true;
static unsigned int lvl_depth;
static uint64_t wheel_timeout_cutoff;
static uint64_t wheel_timeout_max;
static uint64_t timer_tick_nsec;

/*
 * ---- bucket lists ----
 *
 * pprev is also read without the lock by timer_pending(), so every store
 * to it is marked.
 */

static void bucket_add(struct timer_list **head, struct timer_list *timer)
{
	timer->next = *head;
	if (timer->next)
		WRITE_ONCE(timer->next->pprev, &timer->next);
	*head = timer;
	WRITE_ONCE(timer->pprev, head);
}

static void bucket_del(struct timer_list *timer)
{
	*timer->pprev = timer->next;
	if (timer->next)
		WRITE_ONCE(timer->next->pprev, timer->pprev);
	timer->next = NULL;
	WRITE_ONCE(timer->pprev, NULL);
}

/*
 * Unlink @timer to re-queue it at once under the same locks: pprev keeps
 * a stale, non-NULL value until bucket_add() sets it, so a lockless
 * timer_pending() never sees the timer idle in between (Linux's
 * detach_timer(timer, false) in migrate_timer_list()).  A caller that
 * saw it not pending would take it for its own to arm, and add_timer_on()
 * would then find it pending and refuse the arm.
 */
static void bucket_unlink(struct timer_list *timer)
{
	*timer->pprev = timer->next;
	if (timer->next)
		WRITE_ONCE(timer->next->pprev, timer->pprev);
	timer->next = NULL;
}

/* Move the list at @from to the empty head @to. */
static void bucket_move(struct timer_list **from, struct timer_list **to)
{
	*to = *from;
	if (*to)
		WRITE_ONCE((*to)->pprev, to);
	*from = NULL;
}

/* ---- base lookup ---- */

static unsigned int base_index(uint32_t tflags)
{
	if (tflags & TIMER_DEFERRABLE)
		return BASE_DEF;
	return tflags & TIMER_PINNED ? BASE_LOCAL : BASE_GLOBAL;
}

static struct timer_base *timer_cpu_base(uint32_t tflags, unsigned int cpu)
{
	return cpu_base(cpu, base_index(tflags));
}

/*
 * lock_timer_base - lock the base @timer belongs to
 * Pre: none; returns with that base's lock held (irqs saved in @flags).
 */
static struct timer_base *lock_timer_base(struct timer_list *timer,
					  unsigned long *flags)
{
	for (;;) {
		uint32_t tf = READ_ONCE(timer->flags);
		struct timer_base *base;

		if (!(tf & TIMER_MIGRATING)) {
			base = timer_cpu_base(tf, tf & TIMER_CPUMASK);
			spin_lock_irqsave(&base->lock, *flags);
			if (READ_ONCE(timer->flags) == tf)
				return base;
			spin_unlock_irqrestore(&base->lock, *flags);
		}
		timer_env_cpu_relax();
	}
}

/*
 * Move @timer, not pending, from the locked @base to @new_base, CPU @cpu's
 * base of its flags with @set added (TIMER_PINNED for add_timer_on() of an
 * unpinned timer); returns the new base, locked.  TIMER_MIGRATING keeps
 * lock_timer_base() off the timer until its flags name @new_base.
 * Pre: @base->lock held, !timer_pending(@timer).
 */
static struct timer_base *switch_timer_base(struct timer_list *timer,
					    struct timer_base *base,
					    struct timer_base *new_base,
					    unsigned int cpu, uint32_t set)
{
	lockdep_assert_held(&base->lock);
	if (base == new_base) {
		/* A deferrable timer pinned where it is: same base. */
		if (set)
			WRITE_ONCE(timer->flags, timer->flags | set);
		return base;
	}
	WRITE_ONCE(timer->flags, timer->flags | TIMER_MIGRATING);
	spin_unlock(&base->lock);
	spin_lock(&new_base->lock);
	WRITE_ONCE(timer->flags,
		   (timer->flags & ~(TIMER_CPUMASK | TIMER_MIGRATING)) | set |
			   cpu);
	return new_base;
}

/* ---- wheel arithmetic ---- */

/*
 * Bucket of level @lvl for @expires, rounded up to the next bucket boundary
 * so the timer cannot fire early (it may have been armed late in a jiffy).
 */
static unsigned int calc_index(uint64_t expires, unsigned int lvl,
			       uint64_t *bucket_expiry)
{
	expires = (expires >> LVL_SHIFT(lvl)) + 1;
	*bucket_expiry = expires << LVL_SHIFT(lvl);
	return LVL_OFFS(lvl) + (expires & LVL_MASK);
}

static unsigned int calc_wheel_index(uint64_t expires, uint64_t clk,
				     uint64_t *bucket_expiry)
{
	uint64_t delta = expires - clk;
	unsigned int lvl;

	if ((int64_t)delta < 0) {
		*bucket_expiry = clk;
		return clk & LVL_MASK;
	}
	for (lvl = 0; lvl < lvl_depth - 1; lvl++) {
		if (delta < LVL_START(lvl + 1))
			return calc_index(expires, lvl, bucket_expiry);
	}
	if (delta >= wheel_timeout_cutoff)
		expires = clk + wheel_timeout_max;
	return calc_index(expires, lvl_depth - 1, bucket_expiry);
}

/*
 * Tell an idle CPU that its next event moved earlier.  Deferrable timers
 * never wake anybody; under PULL global ones are the hierarchy's business,
 * so only pinned ones need it.  Under PUSH and LOCAL an idle CPU serves all
 * its timers itself, and a pushed timer may land on a CPU that went idle
 * since it was chosen.
 * Pre: base->lock held.
 */
static void trigger_dyntick_cpu(struct timer_base *base,
				struct timer_list *timer)
{
	lockdep_assert_held(&base->lock);
	if (timer->flags & TIMER_DEFERRABLE)
		return;
	if (!(timer->flags & TIMER_PINNED) &&
	    READ_ONCE(timer_model) == TIMER_MODEL_PULL)
		return;
	if (READ_ONCE(base->is_idle) && base->cpu != smp_processor_id())
		timer_env_wake_cpu(base->cpu);
}

/* Pre: base->lock held, @timer on no list (idle, or bucket_unlink()ed). */
static void enqueue_timer(struct timer_base *base, struct timer_list *timer,
			  unsigned int idx, uint64_t bucket_expiry)
{
	lockdep_assert_held(&base->lock);
	bucket_add(&base->vectors[idx], timer);
	base->pending_map[idx / LVL_SIZE] |= 1ull << (idx % LVL_SIZE);
	timer->idx = idx;
	trace_timer_start(base, timer, bucket_expiry);

	if (timer_before(bucket_expiry, base->next_expiry)) {
		WRITE_ONCE(base->next_expiry, bucket_expiry);
		base->timers_pending = true;
		base->next_expiry_recalc = false;
		trigger_dyntick_cpu(base, timer);
	}
}

/* Pre: base->lock held, @timer on no list (idle, or bucket_unlink()ed). */
static void internal_add_timer(struct timer_base *base,
			       struct timer_list *timer)
{
	uint64_t bucket_expiry;
	unsigned int idx;

	idx = calc_wheel_index(timer->expires, base->clk, &bucket_expiry);
	enqueue_timer(base, timer, idx, bucket_expiry);
}

/*
 * Move every timer of @from to @to (the same kind of base of another CPU),
 * keeping each one's expiry; returns how many.  No TIMER_MIGRATING is
 * needed: both locks are held, so lock_timer_base() of a moved timer waits
 * on one of them and then sees its new CPU.
 * Pre: both locks held, @from not expiring, @to forwarded.
 */
unsigned int __timer_move_all(struct timer_base *from, struct timer_base *to)
{
	unsigned int idx, moved = 0;

	lockdep_assert_held(&from->lock);
	lockdep_assert_held(&to->lock);
	for (idx = 0; idx < lvl_depth * LVL_SIZE; idx++) {
		struct timer_list *timer;

		while ((timer = from->vectors[idx])) {
			bucket_unlink(timer);
			WRITE_ONCE(timer->flags,
				   (timer->flags & ~TIMER_CPUMASK) | to->cpu);
			timer_env_race_point(TIMER_RP_MOVE_UNLINKED);
			internal_add_timer(to, timer);
			moved++;
		}
	}
	for (idx = 0; idx < LVL_DEPTH_MAX; idx++)
		from->pending_map[idx] = 0;
	from->timers_pending = false;
	from->next_expiry_recalc = false;
	WRITE_ONCE(from->next_expiry, from->clk + NEXT_TIMER_MAX_DELTA);
	return moved;
}

/*
 * Unlink @timer if pending; returns 1 if it was.
 * Pre: base->lock held, @base is the timer's base.
 */
static int detach_if_pending(struct timer_list *timer, struct timer_base *base)
{
	unsigned int idx = timer->idx;

	lockdep_assert_held(&base->lock);
	if (!timer_pending(timer))
		return 0;
	trace_timer_cancel(timer);
	/* Not when it sits on __run_timers()'s private list. */
	if (timer->pprev == &base->vectors[idx] && !timer->next) {
		base->pending_map[idx / LVL_SIZE] &=
			~(1ull << (idx % LVL_SIZE));
		base->next_expiry_recalc = true;
	}
	bucket_del(timer);
	return 1;
}

/*
 * @timer left @base, the global base of another CPU, which is idle: under
 * tmigr_wake=one or own its event in the hierarchy moves to the base's new first
 * expiry, so that no CPU arms for a timer that is gone (docs/tmigr-wake.md).
 * A later key is all that changes; an earlier timer is the CPU's to queue.
 * Pre: base->lock held, the timer detached.
 */
static void detached_from_idle(struct timer_base *base)
{
	uint64_t basej, now, next;

	if (!READ_ONCE(base->is_idle) || base->cpu == smp_processor_id() ||
	    !base->next_expiry_recalc ||
	    base != cpu_base(base->cpu, BASE_GLOBAL) ||
	    READ_ONCE(timer_model) != TIMER_MODEL_PULL ||
	    tmigr_get_wake() == TMIGR_WAKE_LINUX)
		return;
	timer_recalc_next_expiry(base);
	basej = timer_env_jiffies();
	now = timer_env_now_ns();
	next = TMIGR_NONE_NS;
	/* The earliest ns basej can start at, as tmigr_handle_remote_cpu(). */
	if (base->timers_pending)
		next = timer_jiffies_to_ns(base->next_expiry, basej,
					   now > timer_tick_nsec ?
						   now - (timer_tick_nsec - 1) :
						   0);
	tmigr_cpu_event_later(base->cpu, next);
}

/*
 * Offset (0..63) from bucket @start of the first pending bucket of level
 * @lvl, going round the level; -1 if the level is empty.
 */
static int next_pending_bucket(struct timer_base *base, unsigned int lvl,
			       unsigned int start)
{
	uint64_t map = base->pending_map[lvl];

	if (!map)
		return -1;
	if (start)
		map = (map >> start) | (map << (LVL_SIZE - start));
	return __builtin_ctzll(map);
}

/*
 * Earliest bucket expiry of @base, or clk + NEXT_TIMER_MAX_DELTA if empty.
 * Pre: base->lock held.
 */
static uint64_t next_timer_interrupt(struct timer_base *base)
{
	uint64_t clk = base->clk, next = base->clk + NEXT_TIMER_MAX_DELTA;
	unsigned int lvl;

	lockdep_assert_held(&base->lock);
	for (lvl = 0; lvl < lvl_depth; lvl++) {
		int pos = next_pending_bucket(base, lvl, clk & LVL_MASK);
		unsigned int lvl_clk = clk & LVL_CLK_MASK;

		if (pos >= 0) {
			uint64_t tmp = (clk + (uint64_t)pos) << LVL_SHIFT(lvl);

			if (timer_before(tmp, next))
				next = tmp;
			/*
			 * Found before this level's clock rolls over into
			 * the next level: nothing above can be earlier.
			 */
			if ((unsigned int)pos <=
			    ((LVL_CLK_DIV - lvl_clk) & LVL_CLK_MASK))
				break;
		}
		/*
		 * The next level's clock.  If this level's low bits are not
		 * zero, the next level's current bucket has already been
		 * collected: its next one is one further.
		 */
		clk >>= LVL_CLK_SHIFT;
		if (lvl_clk)
			clk++;
	}
	base->next_expiry_recalc = false;
	base->timers_pending = next != base->clk + NEXT_TIMER_MAX_DELTA;
	return next;
}

/* Pre: base->lock held. */
void timer_recalc_next_expiry(struct timer_base *base)
{
	lockdep_assert_held(&base->lock);
	WRITE_ONCE(base->next_expiry, next_timer_interrupt(base));
}

/*
 * Bring base->clk up to @basej unless a due bucket lies in between.
 * Pre: base->lock held.
 */
void __forward_timer_base(struct timer_base *base, uint64_t basej)
{
	lockdep_assert_held(&base->lock);
	if (timer_before_eq(basej, base->clk))
		return;
	if (timer_after(base->next_expiry, basej)) {
		base->clk = basej;
	} else {
		if (WARN_ON_ONCE(timer_before(base->next_expiry, base->clk)))
			return;
		base->clk = base->next_expiry;
	}
}

static void forward_timer_base(struct timer_base *base)
{
	__forward_timer_base(base, timer_env_jiffies());
}

/* ---- setup ---- */

/**
 * timer_bases_size - bytes of storage timer_init() needs
 * @ncpus: number of CPUs
 */
size_t timer_bases_size(unsigned int ncpus)
{
	return (size_t)ncpus * sizeof(struct timer_cpu);
}

static void zero_bytes(void *p, size_t n)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = 0;
}

static void init_timer_base(struct timer_base *base, unsigned int cpu,
			    uint64_t now)
{
	zero_bytes(base, sizeof(*base));
	spin_lock_init(&base->lock);
	base->cpu = cpu;
	base->clk = now;
	base->next_expiry = now + NEXT_TIMER_MAX_DELTA;
}

/**
 * timer_init - set up the bases of @ncpus CPUs in @storage
 * @storage: timer_bases_size(@ncpus) bytes, 8-byte aligned, kept for good
 * @ncpus: number of CPUs, 1..TIMER_CPUMASK+1
 * @hz: tick rate, 100, 250 or 1000
 *
 * Pre: no timer is in use yet.  Returns 0, or -1 on a bad argument.  The
 * placement model (timer_set_model()) is left as it is.
 */
int timer_init(void *storage, unsigned int ncpus, unsigned int hz)
{
	uint64_t now = timer_env_jiffies();
	unsigned int cpu, i;

	if (WARN_ON_ONCE(!storage || ((uintptr_t)storage & 7) || !ncpus ||
			 ncpus > TIMER_CPUMASK + 1u))
		return -1;
	if (WARN_ON_ONCE(hz != 100 && hz != 250 && hz != 1000))
		return -1;
	lvl_depth = hz > 100 ? 9 : 8;
	wheel_timeout_cutoff = LVL_START(lvl_depth);
	wheel_timeout_max = wheel_timeout_cutoff - LVL_GRAN(lvl_depth - 1);
	timer_tick_nsec = NSEC_PER_SEC / hz;
	timer_cpus = storage;
	timer_nr_cpus = ncpus;
	for (cpu = 0; cpu < ncpus; cpu++) {
		for (i = 0; i < NR_BASES; i++)
			init_timer_base(cpu_base(cpu, i), cpu, now);
		zero_bytes(&timer_cpus[cpu].stats,
			   sizeof(timer_cpus[cpu].stats));
	}
	return 0;
}

/**
 * timer_setup - prepare a timer for use
 * @timer: the timer, not pending
 * @fn: called on expiry with @timer
 * @flags: TIMER_PINNED, TIMER_DEFERRABLE, TIMER_IRQSAFE
 */
void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *timer),
		 uint32_t flags)
{
	WARN_ON_ONCE(flags & ~TIMER_USER_FLAGS);
	timer->next = NULL;
	timer->pprev = NULL;
	timer->expires = 0;
	timer->function = fn;
	timer->idx = 0;
	timer->flags = (flags & TIMER_USER_FLAGS) | smp_processor_id();
}

/* ---- placement ---- */

/**
 * timer_set_model - choose where global timers expire (timer.h)
 * @model: TIMER_MODEL_PULL (the default), _PUSH or _LOCAL
 *
 * Pre: at boot, before any timer is armed and before CPUs idle.
 */
void timer_set_model(enum timer_model model)
{
	if (WARN_ON_ONCE(model != TIMER_MODEL_PULL &&
			 model != TIMER_MODEL_PUSH &&
			 model != TIMER_MODEL_LOCAL))
		return;
	WRITE_ONCE(timer_model, model);
}

/**
 * timer_set_migration - Linux 6.8's timers_migration_enabled
 * @on: the kernel.timer_migration sysctl (default on) and the tick
 *	stopping in idle (Linux enabled it only with NOHZ active)
 *
 * Off, PUSH places every timer on the arming CPU, as 6.8 did.  PULL and
 * LOCAL do not read it.  Pre: as timer_set_model().
 */
void timer_set_migration(bool on)
{
	WRITE_ONCE(timer_migration, on);
}

/*
 * The pre-6.9 heuristic (Linux <= 6.8 get_nohz_timer_target()): this CPU
 * if it is busy and a timer housekeeping CPU; else the first busy
 * housekeeping CPU in the smallest "domain" holding one: SMT sibling,
 * then node, then any.  Linux walked the scheduler domains and took the
 * lowest-numbered busy CPU of each span; cores and nodes are the domains
 * here, and ids are scanned from 0 to match.  None busy: this CPU if it
 * does housekeeping, else the first (here: lowest) that does.
 */
static unsigned int get_nohz_timer_target(void)
{
	unsigned int self = smp_processor_id(), best = self, rank = 4, cpu;
	unsigned int core = timer_env_cpu_core(self);
	unsigned int node = timer_env_cpu_node(self);
	bool hk = timer_env_cpu_housekeeping(self);

	if (hk && !timer_env_cpu_idle(self))
		return self;
	for (cpu = 0; cpu < timer_nr_cpus && rank > 0; cpu++) {
		unsigned int r;

		if (cpu == self || !timer_env_cpu_housekeeping(cpu) ||
		    !timer_cpu_online(cpu))
			continue;
		if (timer_env_cpu_idle(cpu))
			r = 3; /* a fallback only */
		else if (timer_env_cpu_core(cpu) == core)
			r = 0;
		else if (timer_env_cpu_node(cpu) == node)
			r = 1;
		else
			r = 2;
		if (r < rank) {
			rank = r;
			best = cpu;
		}
	}
	if (rank == 3 && hk)
		return self;
	return best;
}

/*
 * CPU whose base a timer with @tflags goes on when armed here: this one,
 * except for a non-pinned timer under PUSH with migration on.  Deferrable
 * ones move too, to the target's deferrable base (6.8 get_target_base()).
 */
static unsigned int timer_target_cpu(uint32_t tflags)
{
	if (READ_ONCE(timer_model) != TIMER_MODEL_PUSH ||
	    !READ_ONCE(timer_migration) || (tflags & TIMER_PINNED))
		return smp_processor_id();
	return get_nohz_timer_target();
}

/* ---- arming ---- */

static int __mod_timer(struct timer_list *timer, uint64_t expires,
		       unsigned int options)
{
	struct timer_base *base, *new_base;
	uint64_t bucket_expiry = 0;
	unsigned int idx = UINT32_MAX, cpu;
	unsigned long flags;
	int ret = 0;

	base = lock_timer_base(timer, &flags);
	forward_timer_base(base);

	if (!(options & MOD_TIMER_NOTPENDING) && timer_pending(timer)) {
		if ((options & MOD_TIMER_REDUCE) &&
		    timer_before_eq(timer->expires, expires)) {
			ret = 1;
			goto out_unlock;
		}
		/*
		 * Same bucket: only the expiry value changes.  Not while
		 * the base expires: the timer may sit on a collected list
		 * whose bucket number aliases the one computed here.
		 */
		idx = calc_wheel_index(expires, base->clk, &bucket_expiry);
		if (idx == timer->idx && !base->expiry_active) {
			timer->expires = expires;
			ret = 1;
			goto out_unlock;
		}
	}

	ret = detach_if_pending(timer, base);
	if (!ret && (options & MOD_TIMER_PENDING_ONLY))
		goto out_unlock;

	cpu = timer_target_cpu(timer->flags);
	new_base = timer_cpu_base(timer->flags, cpu);
	/* A running timer stays, or timer_delete_sync() could miss it. */
	if (base != new_base && base->running_timer != timer) {
		if (ret)
			detached_from_idle(base);
		base = switch_timer_base(timer, base, new_base, cpu, 0);
		/* PUSH chose a CPU that went offline meanwhile. */
		if (base->offline) {
			cpu = smp_processor_id();
			base = switch_timer_base(
				timer, base, timer_cpu_base(timer->flags, cpu),
				cpu, 0);
		}
		forward_timer_base(base);
		idx = UINT32_MAX;
	}

	timer->expires = expires;
	if (idx != UINT32_MAX)
		enqueue_timer(base, timer, idx, bucket_expiry);
	else
		internal_add_timer(base, timer);
out_unlock:
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

/**
 * mod_timer - (re)arm a timer to @expires
 * @timer: set up with timer_setup()
 * @expires: absolute jiffies
 *
 * Returns 1 if the timer was pending, 0 if not.  The timer goes on this
 * CPU's base (under PUSH a movable one on a busy CPU's, see
 * get_nohz_timer_target()) unless its callback is running right now
 * elsewhere.
 */
int mod_timer(struct timer_list *timer, uint64_t expires)
{
	return __mod_timer(timer, expires, 0);
}

/**
 * mod_timer_pending - move a pending timer; leave an idle one alone
 * @timer: set up with timer_setup()
 * @expires: absolute jiffies
 *
 * Returns 1 if the timer was pending (and is now at @expires), else 0.
 */
int mod_timer_pending(struct timer_list *timer, uint64_t expires)
{
	return __mod_timer(timer, expires, MOD_TIMER_PENDING_ONLY);
}

/**
 * timer_reduce - arm, or move earlier only
 * @timer: set up with timer_setup()
 * @expires: absolute jiffies
 *
 * A pending timer that expires at or before @expires is left alone.
 * Returns 1 if the timer was pending, else 0.
 */
int timer_reduce(struct timer_list *timer, uint64_t expires)
{
	return __mod_timer(timer, expires, MOD_TIMER_REDUCE);
}

/**
 * add_timer - arm a timer that is not pending at timer->expires
 * @timer: set up with timer_setup(), not pending
 */
void add_timer(struct timer_list *timer)
{
	if (WARN_ON_ONCE(timer_pending(timer)))
		return;
	__mod_timer(timer, timer->expires, MOD_TIMER_NOTPENDING);
}

/**
 * add_timer_on - arm a pinned timer on CPU @cpu at timer->expires
 * @timer: set up with TIMER_PINNED, not pending
 * @cpu: an existing CPU
 *
 * Without TIMER_PINNED this warns and pins the timer anyway.  If @cpu idles
 * and this timer is now its first, @cpu is woken.  If @cpu is offline
 * (timers_cpu_dead()) this warns once and arms on the calling CPU: a timer
 * on a dead CPU's base would never run.
 */
void add_timer_on(struct timer_list *timer, unsigned int cpu)
{
	struct timer_base *base;
	unsigned long flags;

	if (WARN_ON_ONCE(timer_pending(timer) || cpu >= timer_nr_cpus))
		return;
	base = lock_timer_base(timer, &flags);
	/* Without TIMER_PINNED the base index changes with the flag. */
	WARN_ON_ONCE(!(timer->flags & TIMER_PINNED));
	base = switch_timer_base(
		timer, base, timer_cpu_base(timer->flags | TIMER_PINNED, cpu),
		cpu, TIMER_PINNED);
	if (WARN_ON_ONCE(base->offline)) {
		static bool told;

		if (!atomic_xchg(&told, true))
			pr_warn("add_timer_on: CPU %u is offline, timer armed on CPU %u\n",
				cpu, smp_processor_id());
		cpu = smp_processor_id();
		base = switch_timer_base(
			timer, base, timer_cpu_base(timer->flags, cpu), cpu, 0);
	}
	forward_timer_base(base);
	internal_add_timer(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
}

/* ---- deleting ---- */

/**
 * timer_delete - disarm a timer
 * @timer: set up with timer_setup()
 *
 * Returns 1 if it was pending.  Its callback may still be running on
 * another CPU; use timer_delete_sync() to wait for that.
 */
int timer_delete(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int ret;

	if (!timer_pending(timer))
		return 0;
	base = lock_timer_base(timer, &flags);
	ret = detach_if_pending(timer, base);
	if (ret)
		detached_from_idle(base);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

/*
 * Disarm unless the callback runs elsewhere: returns 0/1 as timer_delete(),
 * or -1 if the callback is running on another CPU.
 */
static int try_to_del_timer_sync(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int ret = -1;

	base = lock_timer_base(timer, &flags);
	if (base->running_timer != timer)
		ret = detach_if_pending(timer, base);
	else if (WARN_ON_ONCE(base->expiry_cpu == smp_processor_id()))
		ret = detach_if_pending(timer, base); /* own callback */
	if (ret == 1)
		detached_from_idle(base);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

/**
 * timer_delete_sync - disarm a timer and wait for its running callback
 * @timer: set up with timer_setup()
 *
 * Pre: not called from @timer's own callback (warns and does not wait), and
 * no lock held that the callback takes.  Returns 1 if it was pending.  On
 * return the callback is not running, though it may re-arm the timer if it
 * ran meanwhile: stop whatever re-arms it first.
 */
int timer_delete_sync(struct timer_list *timer)
{
	int ret;

	while ((ret = try_to_del_timer_sync(timer)) < 0)
		timer_env_cpu_relax();
	return ret;
}

/* ---- expiry ---- */

static void stat_inc(uint64_t *counter)
{
	WRITE_ONCE(*counter, READ_ONCE(*counter) + 1);
}

/*
 * One timer of CPU @owner expires on CPU @here.  Single writers: @here's
 * own counters, and @owner's pulled_for under its global base lock (only
 * that base is expired remotely).
 */
static void count_expiry(unsigned int owner, unsigned int here)
{
	if (owner == here) {
		stat_inc(&timer_cpus[here].stats.expired_local);
	} else {
		stat_inc(&timer_cpus[here].stats.expired_remote);
		stat_inc(&timer_cpus[owner].stats.pulled_for);
	}
}

/*
 * Run the callbacks on @head with the base lock dropped around each.
 * Pre: base->lock held (irqs saved in *flags), base->expiry_active.
 */
static void expire_timers(struct timer_base *base, struct timer_list **head,
			  unsigned long *flags)
{
	unsigned int here = smp_processor_id();

	lockdep_assert_held(&base->lock);
	while (*head) {
		struct timer_list *timer = *head;
		/* Unformatted: clang-format 14 reads this as a product. */
		/* clang-format off */
		void (*fn)(struct timer_list *timer) = timer->function;
		/* clang-format on */

		count_expiry(base->cpu, here);
		base->running_timer = timer;
		bucket_del(timer);
		trace_timer_expire_entry(base, timer);
		if (timer->flags & TIMER_IRQSAFE) {
			spin_unlock(&base->lock);
			fn(timer);
			spin_lock(&base->lock);
		} else {
			spin_unlock_irqrestore(&base->lock, *flags);
			fn(timer);
			spin_lock_irqsave(&base->lock, *flags);
		}
		trace_timer_expire_exit(timer);
		base->running_timer = NULL;
	}
}

/*
 * Move the buckets due at base->next_expiry to @heads, one per level;
 * returns how many.  Sets base->clk to that jiffy.
 * Pre: base->lock held.
 */
static unsigned int collect_expired_timers(struct timer_base *base,
					   struct timer_list **heads)
{
	uint64_t clk = base->clk = base->next_expiry;
	unsigned int lvl, levels = 0;

	lockdep_assert_held(&base->lock);
	for (lvl = 0; lvl < lvl_depth; lvl++) {
		unsigned int idx = LVL_OFFS(lvl) + (clk & LVL_MASK);
		uint64_t bit = 1ull << (idx % LVL_SIZE);

		if (base->pending_map[lvl] & bit) {
			base->pending_map[lvl] &= ~bit;
			bucket_move(&base->vectors[idx], &heads[levels++]);
		}
		/* Upper levels only turn when this one wraps to 0. */
		if (clk & LVL_CLK_MASK)
			break;
		clk >>= LVL_CLK_SHIFT;
	}
	return levels;
}

/*
 * Expire everything due on @base up to the jiffy at entry, unless another
 * CPU is already at it.  The jiffy is read once: a callback that outlasts
 * a jiffy and re-arms itself for the next one (a vCPU the host
 * descheduled, a contended lock) would otherwise keep this loop, and the
 * interrupted context, going for ever; what falls due during the pass is
 * the next pass's, one tick later.
 * Pre: base->lock held (irqs saved in *flags).
 */
void __run_timers(struct timer_base *base, unsigned long *flags)
{
	struct timer_list *heads[LVL_DEPTH_MAX];
	unsigned int levels;
	uint64_t now = timer_env_jiffies();

	lockdep_assert_held(&base->lock);
	if (base->expiry_active)
		return;
	WRITE_ONCE(base->expiry_active, true);
	base->expiry_cpu = smp_processor_id();

	for (;;) {
		if (base->next_expiry_recalc)
			timer_recalc_next_expiry(base);
		if (!timer_after_eq(now, base->clk) ||
		    !timer_after_eq(now, base->next_expiry))
			break;
		levels = collect_expired_timers(base, heads);
		WARN_ON_ONCE(!levels && !base->next_expiry_recalc &&
			     base->timers_pending);
		base->clk++;
		timer_recalc_next_expiry(base);
		while (levels--)
			expire_timers(base, &heads[levels], flags);
	}
	WRITE_ONCE(base->expiry_active, false);
}

static void run_timer_base(struct timer_base *base)
{
	unsigned long flags;

	if (!timer_after_eq(timer_env_jiffies(), READ_ONCE(base->next_expiry)))
		return;
	spin_lock_irqsave(&base->lock, flags);
	__run_timers(base, &flags);
	spin_unlock_irqrestore(&base->lock, flags);
}

/**
 * run_timer_softirq - expire this CPU's due timers, all three bases
 *
 * Under PULL, then the due global timers of idle CPUs this CPU is
 * migrator for.  Pre: softirq context of the current CPU.
 */
void run_timer_softirq(void)
{
	unsigned int cpu = smp_processor_id(), i;

	for (i = 0; i < NR_BASES; i++)
		run_timer_base(cpu_base(cpu, i));
	if (READ_ONCE(timer_model) == TIMER_MODEL_PULL) {
		timer_env_race_point(TMIGR_RP_SOFTIRQ_REMOTE);
		tmigr_handle_remote();
	}
}

/**
 * timer_tick - per-tick hook: raise the softirq if any base has work,
 * or under PULL if idle CPUs' timers wait for this CPU
 *
 * Pre: tick interrupt of the current CPU, jiffies already advanced.
 */
void timer_tick(void)
{
	unsigned int cpu = smp_processor_id(), i;
	uint64_t now = timer_env_jiffies();

	for (i = 0; i < NR_BASES; i++) {
		if (timer_after_eq(now,
				   READ_ONCE(cpu_base(cpu, i)->next_expiry))) {
			timer_env_raise_softirq();
			return;
		}
	}
	if (READ_ONCE(timer_model) == TIMER_MODEL_PULL &&
	    tmigr_requires_handle_remote())
		timer_env_raise_softirq();
}

/* ---- clock and statistics ---- */

/**
 * timer_tick_ns - length of a jiffy in ns (NSEC_PER_SEC / hz)
 */
uint64_t timer_tick_ns(void)
{
	return timer_tick_nsec;
}

/**
 * timer_jiffies_to_ns - the ns time of jiffy @j
 * @j: any jiffy
 * @basej: a jiffy whose ns time is known
 * @basem: the ns time of @basej's start
 *
 * A jiffy before @basej is @basem: it is due now.
 */
uint64_t timer_jiffies_to_ns(uint64_t j, uint64_t basej, uint64_t basem)
{
	if (timer_before(j, basej))
		return basem;
	return basem + (j - basej) * timer_tick_nsec;
}

/**
 * timer_get_stats - expiry counts of CPU @cpu
 * @cpu: any CPU; an unknown one reads all zero
 * @stats: filled in
 */
void timer_get_stats(unsigned int cpu, struct timer_cpu_stats *stats)
{
	if (cpu >= timer_nr_cpus) {
		zero_bytes(stats, sizeof(*stats));
		return;
	}
	stats->expired_local = READ_ONCE(timer_cpus[cpu].stats.expired_local);
	stats->expired_remote = READ_ONCE(timer_cpus[cpu].stats.expired_remote);
	stats->pulled_for = READ_ONCE(timer_cpus[cpu].stats.pulled_for);
}
