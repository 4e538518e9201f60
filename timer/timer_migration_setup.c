// SPDX-License-Identifier: GPL-2.0
/*
 * timer/timer_migration_setup.c - building the pull hierarchy, and the
 * read-only views of it (the walks are timer_migration.c, whose opening
 * comment describes the whole).
 *
 * Levels: Linux's estimate, levels of TMIGR_CHILDS_PER_GROUP to hold a
 * node's CPUs (tmigr_crossnode_level of them) plus levels to join the
 * nodes.  Groups are made as CPUs are prepared and never freed; those of a
 * prepare that failed are taken back and reused.  Growth above the root
 * follows docs/races.md ("Parent pointer read twice" to "New node below the
 * cross-node level"): a new root pre-accounts the old one as child 0, masks
 * are set before the parent pointer is published with release, a new node
 * is built up to the cross-node level before the old root is connected
 * above it, and the old root's activity and first event are then copied up
 * under the walks' own cmpxchg rule.
 */
#include "lib/errno.h"
#include "timer/timer.h"
#include "timer/timer_migration_internal.h"
#include "timer/tmigr_trace.h"
#include "timer_env.h"

struct tmigr_cpu *tmigr_cpus;
unsigned int tmigr_nr_cpus;
static unsigned int tmigr_hierarchy_levels;
static unsigned int tmigr_crossnode_level;
static unsigned int tmigr_cores_per_group;
bool tmigr_ready;
bool tmigr_inactive_up_mainline;

/* Setup state, under tmigr_setup_lock (the count is also read lockless). */
static spinlock_t tmigr_setup_lock;
static struct tmigr_group **tmigr_groups; /* by id */
static unsigned int tmigr_nr_groups;
static unsigned int tmigr_max_groups;
static struct tmigr_group *tmigr_level_head[TMIGR_MAX_LEVELS];
static struct tmigr_group *tmigr_level_tail[TMIGR_MAX_LEVELS];
static unsigned int tmigr_level_count[TMIGR_MAX_LEVELS];
static struct tmigr_group *tmigr_root;

/* ---- setup ---- */

/* ceil(log2(n)), 0 for n <= 1. */
static unsigned int tmigr_order_base_2(unsigned int n)
{
	unsigned int order = 0;

	while ((1ull << order) < n)
		order++;
	return order;
}

/* Levels of groups of TMIGR_CHILDS_PER_GROUP that hold @n children. */
static unsigned int tmigr_levels_for(unsigned int n)
{
	return (tmigr_order_base_2(n) + TMIGR_GROUP_SHIFT - 1) /
	       TMIGR_GROUP_SHIFT;
}

/*
 * Groups a failed prepare took back (tmigr_unwind()), reused before new
 * memory: the env cannot free, so a retry allocates nothing twice.
 * Linked through level_next.  Pre: tmigr_setup_lock held.
 */
static struct tmigr_group *tmigr_spare;

static struct tmigr_group *tmigr_alloc_group(void)
{
	struct tmigr_group *group = tmigr_spare;

	if (group) {
		tmigr_spare = group->level_next;
		return group;
	}
	group = timer_env_zalloc(sizeof(*group));
	if (group)
		spin_lock_init(&group->lock);
	return group;
}

/*
 * A new group of level @lvl, appended to its level.  Returns NULL with
 * *@err set: -ENOMEM out of memory, -ERANGE out of group slots (the bound
 * of tmigr_init() is wrong).  Pre: tmigr_setup_lock held.
 */
static struct tmigr_group *tmigr_new_group(unsigned int lvl, unsigned int node,
					   int *err)
{
	struct tmigr_group *group;
	union tmigr_state s;

	if (WARN_ON_ONCE(tmigr_nr_groups >= tmigr_max_groups)) {
		*err = -ERANGE;
		return NULL;
	}
	group = tmigr_alloc_group();
	if (!group) {
		*err = -ENOMEM;
		return NULL;
	}
	/* Every field but the lock, which is unlocked and initialised. */
	group->parent = NULL;
	group->childmask = 0;
	group->level = lvl;
	group->node = lvl < tmigr_crossnode_level ? node : TMIGR_NO_NODE;
	group->num_children = 0;
	group->num_cores = 1;
	for (unsigned int i = 0; i < TMIGR_CHILDS_PER_GROUP; i++)
		group->cpus[i] = 0;
	group->level_next = NULL;
	s.active = 0;
	s.migrator = TMIGR_NONE;
	s.seq = 0;
	group->migr_state = s.state;
	tq_init(&group->events);
	group->next_expiry = TMIGR_NONE_NS;
	tq_node_init(&group->groupevt.nextevt, TMIGR_NONE_NS);
	group->groupevt.cpu = 0;
	WRITE_ONCE(group->groupevt.ignore, true);

	if (tmigr_level_tail[lvl])
		tmigr_level_tail[lvl]->level_next = group;
	else
		tmigr_level_head[lvl] = group;
	tmigr_level_tail[lvl] = group;
	tmigr_level_count[lvl]++;
	group->id = tmigr_nr_groups;
	tmigr_groups[group->id] = group;
	/* The views read the count lockless. */
	smp_store_release(&tmigr_nr_groups, tmigr_nr_groups + 1);
	trace_tmigr_group_set(group);
	return group;
}

/*
 * Take back the groups made since the count was @first_new, newest first:
 * each is the tail of its level and connected to nothing yet, so nothing
 * else points at it.  Only ids and memory below the bound were touched
 * (the failure mainline's "Prevent out of bounds access on failure"
 * fixed: its unwind indexed its level stack at -1).
 * Pre: tmigr_setup_lock held.
 */
static void tmigr_unwind(unsigned int first_new)
{
	while (tmigr_nr_groups > first_new) {
		struct tmigr_group *group = tmigr_groups[tmigr_nr_groups - 1];
		unsigned int lvl = group->level;
		struct tmigr_group *prev = NULL, *g;

		for (g = tmigr_level_head[lvl]; g != group; g = g->level_next)
			prev = g;
		if (prev)
			prev->level_next = NULL;
		else
			tmigr_level_head[lvl] = NULL;
		tmigr_level_tail[lvl] = prev;
		tmigr_level_count[lvl]--;
		/*
		 * The slot keeps pointing at the group, whose memory stays: a
		 * view that read the old count finds a group, not NULL.
		 */
		smp_store_release(&tmigr_nr_groups, tmigr_nr_groups - 1);
		group->level_next = tmigr_spare;
		tmigr_spare = group;
	}
}

static bool tmigr_sibling_in_group(unsigned int cpu,
				   const struct tmigr_group *group)
{
	unsigned int i, core = timer_env_cpu_core(cpu);

	for (i = 0; i < group->num_children; i++)
		if (timer_env_cpu_core(group->cpus[i]) == core)
			return true;
	return false;
}

/*
 * A group of level @lvl with room for @cpu (-1: a group, not a CPU) of
 * @node, or a new one (NULL with *@err set if that fails).  At level 0
 * with SMT, a group holding a sibling of @cpu comes first, else one with
 * fewer than tmigr_cores_per_group cores; *@new_core then says @cpu adds
 * a core to it, which the caller counts once nothing can fail any more.
 * Pre: tmigr_setup_lock held.
 */
static struct tmigr_group *tmigr_get_group(int cpu, unsigned int node,
					   unsigned int lvl, bool *new_core,
					   int *err)
{
	bool smt = lvl == 0 && cpu >= 0 &&
		   tmigr_cores_per_group != TMIGR_CHILDS_PER_GROUP;
	struct tmigr_group *group;
	unsigned int pass;

	lockdep_assert_held(&tmigr_setup_lock);
	*new_core = false;
	for (pass = smt ? 0 : 1; pass < 2; pass++) {
		for (group = tmigr_level_head[lvl]; group;
		     group = group->level_next) {
			if (lvl < tmigr_crossnode_level && group->node != node)
				continue;
			if (group->num_children >= TMIGR_CHILDS_PER_GROUP)
				continue;
			if (smt && pass == 0 &&
			    !tmigr_sibling_in_group((unsigned int)cpu, group))
				continue;
			if (smt && pass == 1) {
				if (group->num_cores >= tmigr_cores_per_group)
					continue;
				*new_core = true;
			}
			return group;
		}
	}
	return tmigr_new_group(lvl, node, err);
}

/*
 * Make @child the next child of @parent.  The mask is visible before the
 * parent pointer, which walkers read with acquire (docs/races.md, "Walker
 * reaches a new parent before its mask").
 * Pre: tmigr_setup_lock held.
 */
static void tmigr_connect(struct tmigr_group *child, struct tmigr_group *parent,
			  uint8_t mask)
{
	lockdep_assert_held(&tmigr_setup_lock);
	child->childmask = mask;
	smp_store_release(&child->parent, parent);
	trace_tmigr_connect_child_parent(child, parent);
}

static uint8_t tmigr_take_slot(struct tmigr_group *parent)
{
	WARN_ON_ONCE(parent->num_children >= TMIGR_CHILDS_PER_GROUP);
	WRITE_ONCE(parent->num_children, parent->num_children + 1);
	return (uint8_t)(1u << (parent->num_children - 1));
}

/*
 * Copy @child's activity into its new parents, level by level, with the
 * rule of tmigr_inactive_up() (parent state, then child state, then
 * cmpxchg), and queue the first event of an idle child there.  The
 * parents are new, so a walker that raced with the connection has either
 * stopped below them or has bumped their seq.
 * Pre: tmigr_setup_lock held.
 */
static void tmigr_sync_up(struct tmigr_group *child)
{
	struct tmigr_group *group;

	while ((group = smp_load_acquire(&child->parent))) {
		struct tmigr_walk data = {
			.firstexp = TMIGR_NONE_NS,
			.remote = true,
			.parent = smp_load_acquire(&group->parent),
		};
		union tmigr_state cur, new, childstate;
		uint8_t mask = child->childmask;

		cur.state = smp_load_acquire(&group->migr_state);
		for (;;) {
			childstate = tmigr_read_state(child);
			new = cur;
			if (childstate.active) {
				new.active |= mask;
				if (new.migrator == TMIGR_NONE)
					new.migrator = mask;
			} else {
				new.active &= ~mask;
				if (new.migrator == mask)
					new.migrator =
						tmigr_first_active(new.active);
			}
			new.seq++;
			timer_env_race_point(TMIGR_RP_CONNECT_SYNC);
			if (try_cmpxchg(&group->migr_state, &cur.state,
					new.state))
				break;
		}
		if (!childstate.active)
			tmigr_update_events(group, child, &data);
		/* Active before and after: nothing above changes. */
		if (cur.active && new.active)
			break;
		child = group;
	}
}

/*
 * The groups that will join @old_root's node to the new @root at the
 * levels between them, into @chain[1..]; @chain[0] is @old_root.  Below
 * the cross-node level the old root's node gets groups of its own up to
 * @root's level, so it never shares a group with another node there
 * (docs/races.md, "New node below the cross-node level").  Returns the top index, or a negative error with the
 * groups made so far left for tmigr_unwind().
 * Pre: tmigr_setup_lock held.
 */
static int tmigr_get_chain(struct tmigr_group *old_root,
			   struct tmigr_group *root,
			   struct tmigr_group *chain[TMIGR_MAX_LEVELS])
{
	unsigned int n = 0, lvl;
	int err = 0;

	chain[0] = old_root;
	for (lvl = old_root->level + 1; lvl < root->level; lvl++) {
		struct tmigr_group *group;
		bool new_core;

		group = tmigr_get_group(-1, old_root->node, lvl, &new_core,
					&err);
		if (!group)
			return err;
		if (WARN_ON_ONCE(group->parent || group->num_children))
			return -EINVAL;
		chain[++n] = group;
	}
	return (int)n;
}

/*
 * Connect @old_root, through the groups of @chain[1..@n], into slot 0 of
 * the new root above @chain[@n], which pre-accounted it; then copy its
 * state up.  Nothing here can fail.  Pre: tmigr_setup_lock held.
 */
static void tmigr_connect_old_root(struct tmigr_group *old_root,
				   struct tmigr_group *root,
				   struct tmigr_group *chain[TMIGR_MAX_LEVELS],
				   unsigned int n)
{
	/* tmigr_get_chain() stays below the root's level, so below MAX. */
	if (WARN_ON_ONCE(n >= TMIGR_MAX_LEVELS))
		return;
	/* Top-down: a group becomes reachable only once linked above. */
	tmigr_connect(chain[n], root, 1u << 0);
	for (; n > 0; n--) {
		struct tmigr_group *child = chain[n - 1], *parent = chain[n];

		tmigr_connect(child, parent, tmigr_take_slot(parent));
	}
	timer_env_race_point(TMIGR_RP_CONNECT_PUBLISHED);
	tmigr_sync_up(old_root);
}

/*
 * The groups of @cpu's path into @stack, from level 0 up to a group that
 * is connected already, the old root, or a new root.  Returns the top
 * level, or a negative error with the groups made so far left for
 * tmigr_unwind().  *@new_core: as tmigr_get_group() said for level 0.
 * Pre: tmigr_setup_lock held.
 */
static int tmigr_get_path(unsigned int cpu,
			  struct tmigr_group *stack[TMIGR_MAX_LEVELS],
			  bool *new_core)
{
	struct tmigr_group *old_root = tmigr_root;
	unsigned int node = timer_env_cpu_node(cpu), lvl;
	bool mismatch, nc;
	int err = 0;

	/* A new node must first get its own groups up to the crossnode. */
	mismatch = old_root && old_root->level < tmigr_crossnode_level &&
		   old_root->node != node;
	for (lvl = 0;; lvl++) {
		struct tmigr_group *group;

		group = tmigr_get_group((int)cpu, node, lvl, &nc, &err);
		if (!group)
			return err;
		if (lvl == 0)
			*new_core = nc;
		stack[lvl] = group;
		if (group->parent || group == old_root)
			break;
		if (lvl + 1 == tmigr_hierarchy_levels) {
			/* The levels were computed to fit: one root. */
			if (WARN_ON_ONCE(tmigr_level_count[lvl] != 1))
				return -EINVAL;
			break;
		}
		if (tmigr_level_count[lvl] == 1 &&
		    !(mismatch && lvl < tmigr_crossnode_level))
			break;
	}
	return (int)lvl;
}

/*
 * Build the path of @cpu up to a group that is connected already, or the
 * root, creating the root if the hierarchy grows.  Every group is made
 * before anything is connected, so a failure (-ENOMEM) takes back what
 * this call made and leaves the hierarchy as it was: the CPUs in it go
 * on, and the same call may be retried.
 * Pre: tmigr_setup_lock held.
 */
static int tmigr_add_cpu(unsigned int cpu)
{
	/* tmigr_get_path() fills stack[0..its result]. */
	struct tmigr_group *stack[TMIGR_MAX_LEVELS] = { NULL };
	struct tmigr_group *chain[TMIGR_MAX_LEVELS];
	struct tmigr_group *top, *old_root = tmigr_root;
	struct tmigr_cpu *tmc = &tmigr_cpus[cpu];
	unsigned int first_new = tmigr_nr_groups, lvl;
	bool fresh_top, new_core = false;
	int ret, nchain = -1;

	lockdep_assert_held(&tmigr_setup_lock);
	ret = tmigr_get_path(cpu, stack, &new_core);
	if (ret >= 0 && WARN_ON_ONCE(!stack[0] || !stack[ret]))
		ret = -EINVAL;
	if (ret < 0)
		goto unwind;
	lvl = (unsigned int)ret;
	top = stack[lvl];
	fresh_top = top->id >= first_new;
	/*
	 * A new root above the old one: it will have two children, the old
	 * root and the new branch (one would be the first CPU's own root;
	 * docs/races.md, "New root with two children").
	 */
	if (fresh_top && old_root) {
		nchain = tmigr_get_chain(old_root, top, chain);
		if (nchain < 0) {
			ret = nchain;
			goto unwind;
		}
	}

	/*
	 * A new root: pre-account the old root as child 0, and give the
	 * root its own mask 0 in advance for the next one (docs/races.md,
	 * "Walker reaches a new parent before its mask").
	 */
	if (nchain >= 0) {
		WRITE_ONCE(top->num_children, 1);
		top->childmask = 1u << 0;
	}
	for (; lvl > 0; lvl--)
		tmigr_connect(stack[lvl - 1], stack[lvl],
			      tmigr_take_slot(stack[lvl]));
	if (new_core)
		stack[0]->num_cores++;
	stack[0]->cpus[stack[0]->num_children] = cpu;
	tmc->childmask = tmigr_take_slot(stack[0]);
	smp_store_release(&tmc->tmgroup, stack[0]);
	trace_tmigr_connect_cpu_parent(tmc);

	if (nchain >= 0)
		tmigr_connect_old_root(old_root, top, chain,
				       (unsigned int)nchain);
	if (!top->parent)
		tmigr_root = top;
	return 0;

unwind:
	tmigr_unwind(first_new);
	return ret;
}

/**
 * tmigr_cpu_prepare - build the groups of CPU @cpu before it comes online
 * @cpu: a CPU below the ncpus given to tmigr_init()
 *
 * Returns 0, -EINVAL before tmigr_init() or for a bad @cpu, -ENOMEM when
 * out of memory (the hierarchy is then as before the call, and the call
 * may be retried), -ERANGE when group slots ran out (a bug, warned).
 */
int tmigr_cpu_prepare(unsigned int cpu)
{
	struct tmigr_cpu *tmc;
	int ret = 0;

	if (WARN_ON_ONCE(!smp_load_acquire(&tmigr_ready) ||
			 cpu >= tmigr_nr_cpus))
		return -EINVAL;
	tmc = &tmigr_cpus[cpu];
	spin_lock(&tmigr_setup_lock);
	if (!tmc->tmgroup)
		ret = tmigr_add_cpu(cpu);
	spin_unlock(&tmigr_setup_lock);
	return ret;
}

/*
 * Groups the hierarchy can ever need: a node's groups at a level are at
 * most an eighth of its groups below plus one; level 0 may hold as little
 * as one CPU per group when SMT cores are not filled.
 */
static unsigned int tmigr_group_bound(unsigned int ncpus, unsigned int nnodes,
				      unsigned int levels)
{
	unsigned int lvl, per = ncpus, total = ncpus;

	for (lvl = 1; lvl < levels; lvl++) {
		per = per / TMIGR_CHILDS_PER_GROUP + nnodes + 1;
		total += per;
	}
	return total;
}

/*
 * The one block tmigr_init() allocates: the CPUs, the group table for
 * @levels, the armed CPUs' mask (tmigr_wake.c), and a count per node.
 * @levels here is an upper bound (the node and CPU levels of all @ncpus
 * CPUs, before the largest node is known), so that a single allocation
 * either gives everything or fails with nothing taken.
 */
static void *tmigr_alloc_tables(unsigned int ncpus, unsigned int nnodes,
				unsigned int levels, unsigned int **per_node)
{
	size_t cpus = ncpus * sizeof(struct tmigr_cpu);
	size_t groups = tmigr_group_bound(ncpus, nnodes, levels) *
			sizeof(struct tmigr_group *);
	size_t mask = (ncpus + 63) / 64 * sizeof(uint64_t);
	unsigned char *mem;

	_Static_assert(
		sizeof(struct tmigr_cpu) % _Alignof(struct tmigr_group *) ==
				0 &&
			sizeof(struct tmigr_group *) % _Alignof(uint64_t) ==
				0 &&
			_Alignof(uint64_t) % _Alignof(unsigned int) == 0,
		"tables packed back to back stay aligned");
	mem = timer_env_zalloc(cpus + groups + mask +
			       nnodes * sizeof(**per_node));
	if (!mem)
		return NULL;
	tmigr_cpus = (struct tmigr_cpu *)mem;
	tmigr_groups = (struct tmigr_group **)(mem + cpus);
	tmigr_armed_mask = (uint64_t *)(mem + cpus + groups);
	*per_node = (unsigned int *)(mem + cpus + groups + mask);
	return mem;
}

/**
 * tmigr_init - size the hierarchy for @ncpus CPUs on @nnodes nodes
 * @ncpus: CPUs that may ever come online, ids 0..ncpus-1
 * @nnodes: nodes; every CPU's timer_env_cpu_node() is below it
 *
 * Pre: no CPU uses the hierarchy.  Returns 0, -EINVAL for bad arguments,
 * -ENOMEM when out of memory (nothing is then allocated, and the
 * hierarchy stays unusable until a tmigr_init() succeeds).
 */
int tmigr_init(unsigned int ncpus, unsigned int nnodes)
{
	unsigned int *per_node, cpu, max_per_node = 0, siblings = 0, cpulvl;
	unsigned int nodelvl, lvl, bound_levels;

	WRITE_ONCE(tmigr_ready, false);
	if (WARN_ON_ONCE(!ncpus || !nnodes || ncpus > TIMER_CPUMASK + 1u))
		return -EINVAL;
	bound_levels = tmigr_levels_for(ncpus) + tmigr_levels_for(nnodes);
	if (WARN_ON_ONCE(bound_levels > TMIGR_MAX_LEVELS))
		return -EINVAL;
	if (!tmigr_alloc_tables(ncpus, nnodes, bound_levels ? bound_levels : 1,
				&per_node))
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus; cpu++) {
		unsigned int node = timer_env_cpu_node(cpu);

		if (WARN_ON_ONCE(node >= nnodes))
			return -EINVAL;
		if (++per_node[node] > max_per_node)
			max_per_node = per_node[node];
		if (timer_env_cpu_core(cpu) == timer_env_cpu_core(0))
			siblings++;
	}

	/*
	 * Linux's estimate: levels to hold a node's CPUs, then levels to
	 * join the nodes.  Its CPUs per node, ncpus / nnodes rounded up, is
	 * never more than the largest node, which is what must fit.
	 */
	cpulvl = tmigr_levels_for(max_per_node);
	nodelvl = tmigr_levels_for(nnodes);
	tmigr_hierarchy_levels = cpulvl + nodelvl ? cpulvl + nodelvl : 1;
	tmigr_crossnode_level = cpulvl;

	/* SMT: whole cores per level-0 group, as many as fit. */
	tmigr_cores_per_group = TMIGR_CHILDS_PER_GROUP;
	if (siblings >= 2 && siblings < TMIGR_CHILDS_PER_GROUP)
		tmigr_cores_per_group /= siblings;

	tmigr_max_groups =
		tmigr_group_bound(ncpus, nnodes, tmigr_hierarchy_levels);
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct tmigr_cpu *tmc = &tmigr_cpus[cpu];

		spin_lock_init(&tmc->lock);
		spin_lock_init(&tmc->wake_lock);
		tq_node_init(&tmc->cpuevt.nextevt, TMIGR_NONE_NS);
		tmc->cpuevt.cpu = cpu;
		WRITE_ONCE(tmc->cpuevt.ignore, true);
		tmc->wakeup = TMIGR_NONE_NS;
		/* isolcpus= is fixed at boot. */
		tmc->isolated = !timer_env_cpu_housekeeping(cpu);
	}
	for (lvl = 0; lvl < TMIGR_MAX_LEVELS; lvl++) {
		tmigr_level_head[lvl] = tmigr_level_tail[lvl] = NULL;
		tmigr_level_count[lvl] = 0;
	}
	spin_lock_init(&tmigr_setup_lock);
	tmigr_nr_groups = 0;
	tmigr_spare = NULL;
	tmigr_root = NULL;
	tmigr_nr_cpus = ncpus;
	smp_store_release(&tmigr_ready, true);

	pr_info("tmigr: %u CPUs, %u nodes: %u levels, crossnode level %u, %u cores per group\n",
		ncpus, nnodes, tmigr_hierarchy_levels, tmigr_crossnode_level,
		tmigr_cores_per_group);
	return 0;
}

/**
 * tmigr_reset - the hierarchy is gone: every call is a no-op until the
 * next tmigr_init()
 *
 * For tests that free timer_env_zalloc()'s memory between runs.  Pre: no
 * CPU is inside a tmigr call.
 */
void tmigr_reset(void)
{
	WRITE_ONCE(tmigr_ready, false);
}

/**
 * tmigr_set_inactive_up_mainline - walk up from an idle CPU as mainline does
 * @on: true: tmigr_inactive_up() ends the walk on what its own cmpxchg
 *	saw and ignores that the group went idle before the CPU's event
 *	was queued (mainline's kernel/time/timer_migration.c); false: the
 *	fixed walk (the default)
 *
 * For the host tests and the simulator, to replay the event mainline
 * loses (docs/findings/tmigr-inactive-up-lost-event.md); the kernel never
 * calls it.
 */
void tmigr_set_inactive_up_mainline(bool on)
{
	WRITE_ONCE(tmigr_inactive_up_mainline, on);
}

/* ---- views ---- */

/**
 * tmigr_get_shape - levels, cross-node level and groups built so far
 * @shape: filled in; all zero before tmigr_init()
 */
void tmigr_get_shape(struct tmigr_shape *shape)
{
	bool ready = smp_load_acquire(&tmigr_ready);

	shape->levels = ready ? tmigr_hierarchy_levels : 0;
	shape->crossnode_level = ready ? tmigr_crossnode_level : 0;
	shape->groups = ready ? smp_load_acquire(&tmigr_nr_groups) : 0;
	shape->cores_per_group = ready ? tmigr_cores_per_group : 0;
}

/* First event of @group that is not ignored; read-only.  Pre: its lock. */
static struct tmigr_event *tmigr_peek_groupevt(struct tmigr_group *group)
{
	struct tmigr_event *best = NULL;
	struct tq_node *node;

	lockdep_assert_held(&group->lock);
	for (node = tq_first(&group->events); node; node = tq_iter_next(node)) {
		struct tmigr_event *evt =
			tq_entry(node, struct tmigr_event, nextevt);

		if (READ_ONCE(evt->ignore))
			continue;
		if (!best || node->key < best->nextevt.key)
			best = evt;
	}
	return best;
}

/**
 * tmigr_group_get - snapshot of group @id
 * @id: 0..groups-1 (tmigr_get_shape())
 * @v: filled in
 *
 * Returns false for an unknown id.  Changes nothing, so a checker may call
 * it at any time.
 */
bool tmigr_group_get(unsigned int id, struct tmigr_group_view *v)
{
	struct tmigr_group *group, *parent;
	struct tmigr_event *evt;
	union tmigr_state s;

	if (!smp_load_acquire(&tmigr_ready) ||
	    id >= smp_load_acquire(&tmigr_nr_groups))
		return false;
	group = tmigr_groups[id];
	parent = smp_load_acquire(&group->parent);
	spin_lock(&group->lock);
	s = tmigr_read_state(group);
	v->id = id;
	v->level = group->level;
	v->node = group->node;
	v->parent = parent ? (int)parent->id : -1;
	v->num_children = READ_ONCE(group->num_children);
	v->childmask = parent ? group->childmask : 0;
	v->active = s.active;
	v->migrator = s.migrator;
	v->seq = s.seq;
	evt = tmigr_peek_groupevt(group);
	v->next_expiry = evt ? evt->nextevt.key : TMIGR_NONE_NS;
	v->next_cpu = evt ? evt->cpu : 0;
	v->next_expiry_hint = READ_ONCE(group->next_expiry);
	spin_unlock(&group->lock);
	return true;
}

/**
 * tmigr_cpu_get - snapshot of CPU @cpu's hierarchy state
 * @cpu: below tmigr_init()'s ncpus
 * @v: filled in
 *
 * Returns false for an unknown CPU.
 */
bool tmigr_cpu_get(unsigned int cpu, struct tmigr_cpu_view *v)
{
	struct tmigr_group *group;
	struct tmigr_cpu *tmc;

	if (!smp_load_acquire(&tmigr_ready) || cpu >= tmigr_nr_cpus)
		return false;
	tmc = &tmigr_cpus[cpu];
	spin_lock(&tmc->lock);
	group = smp_load_acquire(&tmc->tmgroup);
	/* The event's queue links belong to the group's lock. */
	if (group)
		spin_lock(&group->lock);
	v->online = tmc->online;
	v->idle = tmc->idle;
	v->remote = tmc->remote;
	v->isolated = tmc->isolated;
	v->group = group ? (int)group->id : -1;
	v->childmask = group ? tmc->childmask : 0;
	v->wakeup = READ_ONCE(tmc->wakeup);
	v->cpuevt = tq_queued(&tmc->cpuevt.nextevt) &&
				    !READ_ONCE(tmc->cpuevt.ignore) ?
			    tmc->cpuevt.nextevt.key :
			    TMIGR_NONE_NS;
	if (group)
		spin_unlock(&group->lock);
	spin_unlock(&tmc->lock);
	return true;
}
