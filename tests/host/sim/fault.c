// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/fault.c - torture faults: CPUs going offline inside other
 * CPUs' hierarchy walks and coming back, and late wake-up IPIs.
 *
 * --faults offline: now and then a request is made for a CPU to go
 * offline at one of timer/'s race points (timer_migration.h), hit by
 * another CPU in the middle of a walk: going idle (its cmpxchg of a group
 * state, or its event update) or pulling idle CPUs' timers as migrator
 * (before it locks the CPU, or with the pulled CPU marked remote and
 * unlocked; then the pulled CPU itself is often the one to go).  One
 * request in ten, and one whose point does not come within REQ_STEPS
 * steps, happens between two actions of the workload instead; under push
 * and local, which walk nothing, all do.  Half the time the CPU picked is
 * a busy one: the only busy CPU going away is docs/races.md, "Last active
 * CPU goes offline".
 *
 * Going offline is what the kernel's hotplug does (kernel/hotplug.c): an
 * idle CPU is woken first, so it goes down running; tmigr_cpu_offline() on
 * it; then timers_cpu_dead(cpu, to) moves all its timers, pinned too, to
 * an online CPU.  Linux calls the second from the control CPU after the
 * dying one stopped, so here it comes either at once, in the same race
 * point, or 1-3 jiffies later (the CPU is then DYING: out of the
 * hierarchy, its timers not yet moved and run by nobody).  After 1-200
 * jiffies offline a CPU comes back: timers_cpu_up(), then
 * tmigr_cpu_online() on it, again at a race point or between actions, and
 * it is busy.  At most an eighth of the CPUs are offline at once and at
 * least two stay online.
 *
 * The hook runs on the walking CPU's thread, with that walk stopped at a
 * race point, so it may only do what cannot need a lock the walker holds:
 * going idle (INACTIVE_CMPXCHG, UPDATE_EVENTS, inside
 * timer_nohz_next_event()) it holds its own tmigr lock and its own timer
 * bases, so neither the CPU going offline, nor the CPU its first event is
 * handed to, nor the one its timers move to may be the walker; as
 * migrator (REMOTE_CPU, REMOTE_UNLOCKED, SOFTIRQ_REMOTE) it holds nothing.
 * UPDATE_EVENTS inside a migrator's walk holds the pulled CPU's tmigr
 * lock, which the hook cannot name, so it is left out.
 *
 * --faults ipi-delay: every timer_env_wake_cpu() arrives 0..--ipi-delay
 * jiffies late (random), and one sent while another is in flight to the
 * same CPU merges with it (the earlier arrival wins).
 *
 * What the faults relax (work.c, check.c): a timer's lateness bound gets
 * --ipi-delay jiffies with ipi-delay (whoever had to be woken for it may
 * have been woken that late); a timer moved by timers_cpu_dead() gets the
 * jiffies from tmigr_cpu_offline() to the move plus one, plus its old
 * level's granularity (it may have been due, unrun, on the dying CPU).  The
 * hierarchy check that some idle CPU wakes by the first movable event
 * accepts, while an IPI is in flight to an idle CPU, a wake-up that late
 * by at most --ipi-delay; an idle CPU with an IPI in flight is not held to
 * have queued its first movable event (it looks again when the IPI
 * arrives).  Everything else is as strict as without faults, plus: an
 * offline CPU runs no timer and ticks not, gets no IPI, and after
 * timers_cpu_dead() holds no timer and gets none queued (add_timer_on()
 * of it warns once and arms on the caller, which is checked);
 * timers_cpu_dead() moves exactly the timers the CPU held.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim/sim.h"
#include "timer/timer_migration.h"
#include "timer_env.h"

#define REQ_STEPS     32 /* a request not met by then fires anyway */
#define DYING_MAX_J   3
#define OFFLINE_MAX_J 200

/* A CPU to take offline, or to bring back, at a place of the run. */
struct sim_req {
	bool on;
	enum sim_at at;
	unsigned int skip; /* hits of that race point to let pass */
	uint64_t by_step;  /* between actions at this step if still on */
	unsigned int cpu;  /* online request: the CPU coming back */
};

struct sim_fault {
	struct sim_rng rng;
	struct sim_req off, on;
	unsigned int nr_online; /* CPU_ONLINE */
	unsigned int max_offline;
	bool busy; /* in a fault: race points pass */
};

static const char *const at_names[NR_SIM_AT] = {
	[AT_STEP] = "step",
	[AT_INACTIVE_CMPXCHG] = "inactive_cmpxchg",
	[AT_UPDATE_EVENTS] = "update_events",
	[AT_REMOTE_CPU] = "remote_cpu",
	[AT_REMOTE_UNLOCKED] = "remote_unlocked",
	[AT_SOFTIRQ_REMOTE] = "softirq_remote",
};

/** sim_at_name - short name of @at for summary lines */
const char *sim_at_name(enum sim_at at)
{
	return at_names[at];
}

/** sim_faults_name - "offline,ipi-delay", "offline", ... or "none" */
const char *sim_faults_name(unsigned int faults)
{
	static const char *const names[] = {
		"none",
		"offline",
		"ipi-delay",
		"offline,ipi-delay",
	};

	return names[faults & 3];
}

/**
 * sim_faults_parse - --faults: "none" or a comma list of offline, ipi-delay
 * @list: the argument
 * @faults: SIM_FAULT_* bits
 *
 * Returns 0, or -1 for an unknown word.
 */
int sim_faults_parse(const char *list, unsigned int *faults)
{
	char buf[64], *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	*faults = 0;
	for (char *w = strtok_r(buf, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "offline"))
			*faults |= SIM_FAULT_OFFLINE;
		else if (!strcmp(w, "ipi-delay"))
			*faults |= SIM_FAULT_IPI_DELAY;
		else if (strcmp(w, "none"))
			return -1;
	}
	return 0;
}

/**
 * sim_ipi_arrival - the jiffy an IPI sent now arrives at
 * @s: the run
 */
uint64_t sim_ipi_arrival(struct sim *s)
{
	struct sim_rng r;
	uint64_t d;

	if (!(s->cfg.faults & SIM_FAULT_IPI_DELAY) || !s->cfg.ipi_delay)
		return s->now_j;
	/* Keyed: the same run delays the same IPIs whatever the model. */
	sim_rng_at(&r, s->cfg.seed ^ 0x1b1de1a7, s->step, s->st.ipis);
	d = sim_rng_below(&r, s->cfg.ipi_delay + 1ull);
	if (d)
		s->st.ipis_delayed++;
	return s->now_j + d;
}

/** sim_fault_slack - lateness every timer is allowed on top (IPI delay) */
uint64_t sim_fault_slack(const struct sim *s)
{
	return s->cfg.faults & SIM_FAULT_IPI_DELAY ? s->cfg.ipi_delay : 0;
}

static enum sim_at rp_at(int id)
{
	switch (id) {
	case TMIGR_RP_INACTIVE_CMPXCHG:
		return AT_INACTIVE_CMPXCHG;
	case TMIGR_RP_UPDATE_EVENTS:
		return AT_UPDATE_EVENTS;
	case TMIGR_RP_REMOTE_CPU:
		return AT_REMOTE_CPU;
	case TMIGR_RP_REMOTE_UNLOCKED:
		return AT_REMOTE_UNLOCKED;
	case TMIGR_RP_SOFTIRQ_REMOTE:
		return AT_SOFTIRQ_REMOTE;
	default:
		return AT_STEP; /* setup's points: not used */
	}
}

/* Does the walker hold locks a CPU going offline might need? See top. */
static bool walker_locked(enum sim_at at)
{
	return at == AT_INACTIVE_CMPXCHG || at == AT_UPDATE_EVENTS;
}

/* Is a movable timer of CPU @cpu due (a migrator would claim @cpu)? */
static bool walker_event_due(struct sim *s, unsigned int cpu)
{
	uint64_t lb, gb;

	sim_cpu_first_events(s, cpu, &lb, &gb);
	return gb != SIM_NONE && gb <= s->now_ns + s->tick_ns;
}

/* May a CPU go offline at race point @at now? */
static bool at_ok(const struct sim *s, enum sim_at at)
{
	if (walker_locked(at))
		return s->ctx == CTX_IDLE;
	return s->ctx == CTX_TICK;
}

static unsigned int random_online(struct sim *s, unsigned int not1,
				  unsigned int not2)
{
	struct sim_fault *f = s->fault;

	for (unsigned int i = 0; i < 16; i++) {
		unsigned int cpu =
			(unsigned int)sim_rng_below(&f->rng, s->cfg.cpus);

		if (s->cpus[cpu].state == CPU_ONLINE && cpu != not1 &&
		    cpu != not2)
			return cpu;
	}
	return SIM_NO_CPU;
}

/*
 * A busy online CPU other than @self, the first from a random one on, or
 * SIM_NO_CPU.  Taking the only busy CPU offline is the case of docs/races.md,
 * "Last active CPU goes offline",
 * which random picks, mostly idle CPUs that are woken first, rarely hit.
 */
static unsigned int busy_online(struct sim *s, unsigned int self)
{
	unsigned int n = s->cfg.cpus;
	unsigned int start = (unsigned int)sim_rng_below(&s->fault->rng, n);

	for (unsigned int i = 0; i < n; i++) {
		unsigned int cpu = (start + i) % n;

		if (s->cpus[cpu].state == CPU_ONLINE && s->cpus[cpu].busy &&
		    cpu != self)
			return cpu;
	}
	return SIM_NO_CPU;
}

/*
 * The CPU tmigr_cpu_offline() of @cpu would hand the hierarchy's first
 * event to: the next one online after it (tmigr_any_other_online()).
 */
static unsigned int handover_cpu(const struct sim *s, unsigned int cpu)
{
	for (unsigned int i = 1; i < s->cfg.cpus; i++) {
		unsigned int c = (cpu + i) % s->cfg.cpus;

		if (s->cpus[c].state == CPU_ONLINE)
			return c;
	}
	return SIM_NO_CPU;
}

/* The CPU a migrator is pulling right now (REMOTE_UNLOCKED), or SIM_NO_CPU. */
static unsigned int remote_cpu(const struct sim *s)
{
	struct tmigr_cpu_view v;

	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++)
		if (s->cpus[cpu].state == CPU_ONLINE && !s->cpus[cpu].busy &&
		    tmigr_cpu_get(cpu, &v) && v.remote)
			return cpu;
	return SIM_NO_CPU;
}

static void arm_req(struct sim *s, struct sim_req *r, unsigned int cpu)
{
	struct sim_fault *f = s->fault;

	r->on = true;
	r->cpu = cpu;
	/* Mostly inside a walk; push and local walk nothing. */
	r->at = AT_STEP;
	if (s->cfg.model == TIMER_MODEL_PULL && !sim_rng_chance(&f->rng, 100))
		r->at = 1 + (enum sim_at)sim_rng_below(&f->rng, NR_SIM_AT - 1);
	r->skip = (unsigned int)sim_rng_below(&f->rng, 2);
	r->by_step = s->step + REQ_STEPS;
}

/* A request fires at this hit of its race point, or lets it pass. */
static bool take(struct sim_req *r, enum sim_at at)
{
	if (!r->on || r->at != at)
		return false;
	if (r->skip) {
		r->skip--;
		return false;
	}
	return true;
}

/*
 * timers_cpu_dead(@cpu, @to) on @cpu itself (as kernel/hotplug.c does),
 * on @to or on another online CPU (as Linux's control CPU does).
 */
static void cpu_dead(struct sim *s, unsigned int cpu, unsigned int to)
{
	struct sim_fault *f = s->fault;
	struct sim_cpu *c = &s->cpus[cpu];
	int expect = s->expect_ipi;
	unsigned int n, moved, ctl;

	ctl = (unsigned int)sim_rng_below(&f->rng, 3);
	ctl = ctl == 0 ? cpu :
	      ctl == 1 ? to :
			 random_online(s, SIM_NO_CPU, SIM_NO_CPU);
	host_set_cpu(ctl == SIM_NO_CPU ? to : ctl);
	/* Pinned timers wake an idle @to as they land; it is kicked too. */
	s->expect_ipi = (int)to;
	n = timers_cpu_dead(cpu, to);
	s->expect_ipi = expect;
	moved = sim_work_move_timers(s, cpu, to, c->off_j);
	if (n != moved)
		sim_violation(
			s, (int)cpu, -1,
			"timers_cpu_dead(%u, %u) moved %u timers, the CPU held %u",
			cpu, to, n, moved);
	if (timer_cpu_online(cpu))
		sim_violation(s, (int)cpu, -1,
			      "timer_cpu_online() after timers_cpu_dead()");
	c->state = CPU_DEAD;
	/*
	 * Not idle to timer_env_cpu_idle() from now on: the push heuristic
	 * would pick it were it not for timer_cpu_online().
	 */
	host_cpu_idle[cpu] = false;
	c->until_j = s->now_j + 1 + sim_rng_below(&f->rng, OFFLINE_MAX_J);
	s->st.moved += n;
	if ((int)cpu == s->cfg.trace_cpu)
		sim_trace(s, "cpu=%u dead: %u timers moved to cpu %u", cpu, n,
			  to);
}

/* Hotplug's tmigr_cpu_offline() on @cpu; @ho: whom it may hand over to. */
static void cpu_offline(struct sim *s, unsigned int cpu, unsigned int ho,
			enum sim_at at)
{
	struct sim_fault *f = s->fault;
	struct sim_cpu *c = &s->cpus[cpu];
	int expect = s->expect_ipi;
	struct tmigr_cpu_view v;
	uint64_t ipis;

	if ((int)cpu == s->cfg.trace_cpu)
		sim_trace(s, "cpu=%u offline at %s", cpu, sim_at_name(at));
	/* It goes down running: an idle CPU is woken for it. */
	if (!c->busy)
		sim_cpu_exit_idle(s, cpu);
	host_set_cpu(cpu);
	s->expect_ipi = (int)ho;
	ipis = s->st.ipis;
	if (tmigr_cpu_offline())
		sim_violation(s, (int)cpu, -1, "tmigr_cpu_offline() failed");
	s->expect_ipi = expect;
	/* The last active CPU handed the first event over: legitimately. */
	if (s->st.ipis != ipis) {
		s->st.handovers++;
		sim_note_wakeup(s, ho);
	}
	c->busy = false;
	s->nr_busy--;
	host_cpu_idle[cpu] = true;
	c->state = CPU_DYING;
	c->off_j = s->now_j;
	c->tick_stopped = false;
	c->wake_ns = SIM_NONE;
	c->reason = WAKE_NONE;
	c->hier_wakeup = c->offer_wakeup = TMIGR_NONE_NS;
	f->nr_online--;
	if (s->cfg.cpus - f->nr_online > s->st.offline_max)
		s->st.offline_max = s->cfg.cpus - f->nr_online;
	s->st.offlines++;
	s->st.offline_at[at]++;
	s->st.ops++;
	if (!tmigr_cpu_get(cpu, &v) || v.online)
		sim_violation(
			s, (int)cpu, -1,
			"online in the hierarchy after tmigr_cpu_offline()");
}

/*
 * Take a CPU offline at @at, hit by CPU @self (SIM_NO_CPU: between actions);
 * false if none may go now.  See the top of the file for the choices.
 */
static bool go_offline(struct sim *s, enum sim_at at, unsigned int self)
{
	struct sim_fault *f = s->fault;
	bool locked = at != AT_STEP && walker_locked(at);
	unsigned int cpu = SIM_NO_CPU, to, ho;

	if (f->nr_online <= 2 || s->cfg.cpus - f->nr_online >= f->max_offline)
		return false;
	if (at == AT_REMOTE_UNLOCKED && sim_rng_chance(&f->rng, 500))
		cpu = remote_cpu(s);
	if (cpu != SIM_NO_CPU && cpu != self)
		s->st.offline_pulled++;
	else if (sim_rng_chance(&f->rng, 500))
		cpu = busy_online(s, self);
	if (cpu == SIM_NO_CPU || cpu == self)
		cpu = random_online(s, self, SIM_NO_CPU);
	if (cpu == SIM_NO_CPU)
		return false;
	ho = handover_cpu(s, cpu);
	to = random_online(s, cpu, locked ? self : SIM_NO_CPU);
	if (to == SIM_NO_CPU || (locked && ho == self))
		return false;
	/*
	 * The going CPU first expires the idle CPUs' due timers
	 * (tmigr_cpu_offline()): one of them may be the walker's, whose
	 * tmigr_cpu lock it holds here.  A kernel CPU would spin until the
	 * walk ends; this single thread cannot, so that offline waits for a
	 * later point.
	 */
	if (locked && walker_event_due(s, self))
		return false;
	cpu_offline(s, cpu, ho, at);
	if (sim_rng_chance(&f->rng, 500)) {
		cpu_dead(s, cpu, to);
	} else {
		s->cpus[cpu].until_j =
			s->now_j + 1 + sim_rng_below(&f->rng, DYING_MAX_J);
		s->st.dead_later++;
	}
	return true;
}

/* timers_cpu_up() and tmigr_cpu_online() on offline @cpu: it is busy. */
static void come_online(struct sim *s, unsigned int cpu, enum sim_at at)
{
	struct sim_fault *f = s->fault;
	struct sim_cpu *c = &s->cpus[cpu];

	if ((int)cpu == s->cfg.trace_cpu)
		sim_trace(s, "cpu=%u online at %s", cpu, sim_at_name(at));
	host_set_cpu(cpu);
	timers_cpu_up(cpu);
	if (!timer_cpu_online(cpu))
		sim_violation(s, (int)cpu, -1,
			      "not timer_cpu_online() after timers_cpu_up()");
	host_cpu_idle[cpu] = false;
	c->state = CPU_ONLINE;
	if (tmigr_cpu_online())
		sim_violation(s, (int)cpu, -1, "tmigr_cpu_online() failed");
	c->busy = true;
	s->nr_busy++;
	c->tick_j = s->now_j;
	c->tick_stopped = false;
	c->wake_ns = SIM_NONE;
	c->reason = WAKE_NONE;
	c->hier_wakeup = c->offer_wakeup = TMIGR_NONE_NS;
	f->nr_online++;
	f->on.on = false;
	s->st.onlines++;
	if (at != AT_STEP)
		s->st.online_in_walk++;
	s->st.ops++;
}

/**
 * sim_fault_race_point - timer/ reached race point @id on host_cpu
 * @s: the run, with --faults offline
 * @id: a TMIGR_RP_*
 */
void sim_fault_race_point(struct sim *s, int id)
{
	struct sim_fault *f = s->fault;
	unsigned int self = host_cpu;
	enum sim_at at = rp_at(id);

	if (f->busy || at == AT_STEP)
		return;
	f->busy = true;
	if (take(&f->on, at)) {
		come_online(s, f->on.cpu, at);
		s->faulted = true;
	}
	if (at_ok(s, at) && take(&f->off, at) && go_offline(s, at, self)) {
		f->off.on = false;
		s->faulted = true;
	}
	f->busy = false;
	host_set_cpu(self);
}

/* This step's chance of an offline request, in permille. */
static unsigned int offline_chance(const struct sim *s)
{
	unsigned int scale = s->cfg.cpus / 64 ? s->cfg.cpus / 64 : 1;
	unsigned int p = s->cfg.offline_rate * scale;

	return p < 1000 ? p : 1000;
}

/**
 * sim_fault_step - between the ticks and the workload of a step: the
 * timers_cpu_dead() that were deferred, requests, and those that waited
 * too long for their race point
 * @s: the run, with --faults offline
 */
void sim_fault_step(struct sim *s)
{
	struct sim_fault *f = s->fault;

	f->busy = true;
	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		unsigned int to;

		if (c->state == CPU_ONLINE ||
		    timer_before(s->now_j, c->until_j))
			continue;
		if (c->state == CPU_DYING) {
			to = random_online(s, cpu, SIM_NO_CPU);
			if (to != SIM_NO_CPU)
				cpu_dead(s, cpu, to);
		} else if (!f->on.on) {
			arm_req(s, &f->on, cpu);
		}
	}
	if (f->on.on && (f->on.at == AT_STEP || s->step >= f->on.by_step))
		come_online(s, f->on.cpu, AT_STEP);
	if (!f->off.on && sim_rng_chance(&f->rng, offline_chance(s)))
		arm_req(s, &f->off, SIM_NO_CPU);
	if (f->off.on && (f->off.at == AT_STEP || s->step >= f->off.by_step) &&
	    go_offline(s, AT_STEP, SIM_NO_CPU))
		f->off.on = false;
	f->busy = false;
	sim_deliver_ipis(s);
}

/**
 * sim_fault_check - per-step checks of offline CPUs
 * @s: the run, with --faults offline
 *
 * timer_cpu_online() is false exactly for CPUs past timers_cpu_dead();
 * those hold no timer, in the record and on their bases.
 */
void sim_fault_check(struct sim *s)
{
	unsigned int online = 0;

	for (unsigned int cpu = 0; cpu < s->cfg.cpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		struct timer_events tevt;

		online += c->state == CPU_ONLINE;
		if (timer_cpu_online(cpu) != (c->state != CPU_DEAD))
			sim_violation(s, (int)cpu, -1,
				      "timer_cpu_online() is %d, CPU state %d",
				      timer_cpu_online(cpu), c->state);
		if (c->state != CPU_DEAD)
			continue;
		if (c->head)
			sim_violation(s, (int)cpu, (int)c->head->id,
				      "offline CPU holds a timer");
		fetch_next_timer_interrupt(cpu, s->now_j, &tevt);
		if (tevt.has_local || tevt.has_global)
			sim_violation(
				s, (int)cpu, -1,
				"offline CPU's bases have events (local %llu, global %llu)",
				(unsigned long long)tevt.local,
				(unsigned long long)tevt.global);
	}
	if (online != s->fault->nr_online)
		sim_violation(s, -1, -1, "%u CPUs online, fault.c counted %u",
			      online, s->fault->nr_online);
}

/**
 * sim_fault_init - hotplug state for --faults offline
 * @s: the run, booted
 *
 * Returns 0, or -1 if out of memory.
 */
int sim_fault_init(struct sim *s)
{
	struct sim_fault *f;

	if (!(s->cfg.faults & SIM_FAULT_OFFLINE))
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	sim_rng_seed(&f->rng, s->cfg.seed ^ 0xdeadc0deull);
	f->nr_online = s->cfg.cpus;
	f->max_offline = s->cfg.cpus / 8 ? s->cfg.cpus / 8 : 1;
	s->fault = f;
	return 0;
}

/** sim_fault_free - undo sim_fault_init() */
void sim_fault_free(struct sim *s)
{
	free(s->fault);
	s->fault = NULL;
}
