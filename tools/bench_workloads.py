"""make bench, table 5: every workload under every model (docs/benchmarks.md).

One row per workload and model: idle wakes, the lower bound of that run, their
ratio, hierarchy wakes and the share of them that expired nothing (pull only),
the lateness p99 and the idle residency (share of idle time in HLT stretches
of >= 1 ms and >= 10 ms).  Workloads:
  - the guest scenarios (one_busy, all_idle, busy_per_node, mixed), 8 CPUs / 2
    nodes, from the boots tools/bench ran;
  - the simulator's mixed workload at 8, 64, 512 and 4096 CPUs (seed 3; fewer
    steps at the big shapes so the run stays short: the steps are printed);
  - every trace replayed: the project's excerpt (tests/host/replay/) and
    BENCH_TRACES (colon-separated files or folders of *.trace* files, so a
    user's own recordings take part), with one more row for what Linux itself
    did.
Lateness is the level-0 global timers' p99 in the simulator and the replay
(late_l0_p99_j), the periodic global timers' p99 in the guest.  Idle wakes
count every wake of an idle CPU for a timer: the simulator's wakes_idle plus
its wake_tick (an idle CPU that kept its tick wakes at the next one), as the
replay's idle_wakes and the guest's do; the workload's own interrupts are in
the replay's idle_wakes and its bound alike.
"""
import glob
import os
import re
import subprocess

MODELS = ["pull", "push", "local"]
# pull under the other tmigr_wake= policies, beside the default's (one) rows:
# the same workload under each (docs/tmigr-wake.md).
OTHER_WAKES = ["own", "linux"]
# (CPUs, nodes, steps)
SIM_SHAPES = [(8, 2, 100000), (64, 8, 100000), (512, 16, 20000), (4096, 64, 2000)]
SIM_SEED = 3


def _kv(line):
    return {k: v for k, v in re.findall(r"(\w+)=(\S+)", line)}


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _row(workload, model, wakes, bound, hier=None, empty=None, late=None, r1=None, r10=None):
    w, b = _num(wakes), _num(bound)
    h, e = _num(hier), _num(empty)
    return {"workload": workload, "model": model, "idle_wakes": w, "lower_bound": b,
            "ratio": round(w / b, 3) if w is not None and b else None,
            "hier_wakes": h, "hier_empty": e,
            "hier_empty_pct": round(100.0 * e / h, 1) if h and e is not None else None,
            "late_p99_j": _num(late), "res_1ms_pct": _num(r1), "res_10ms_pct": _num(r10)}


def guest_rows(scenarios):
    """@scenarios: {name: {model: scenario_result fields}} from the boots."""
    rows = []
    for name, by_model in scenarios.items():
        for m in MODELS:
            r = by_model.get(m)
            if r:
                rows.append(_row("guest %s 8/2" % name, m, r.get("idle_wakes"),
                                 r.get("lower_bound_wakes"), late=r.get("late_p99_j"),
                                 r1=r.get("res_1ms_pct"), r10=r.get("res_10ms_pct")))
    return rows


def _label(r):
    """The model, or pull/POLICY for pull under another tmigr_wake= than one."""
    w = r.get("tmigr_wake")
    return r["model"] if r["model"] != "pull" or w in (None, "one") else "pull/" + w


def sim_rows(binary):
    rows = []
    for cpus, nodes, steps in SIM_SHAPES:
        base = [binary, "--seed", str(SIM_SEED), "--steps", str(steps), "--cpus", str(cpus),
                "--nodes", str(nodes)]
        out, rc = "", 0
        for extra in [["--model", "all"]] + [["--model", "pull", "--tmigr-wake", w]
                                             for w in OTHER_WAKES]:
            p = subprocess.run(base + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            out, rc = out + p.stdout, rc or p.returncode
        for line in out.splitlines():
            if not line.startswith("sim cpus="):
                continue
            r = _kv(line)
            rows.append(dict(_row("sim mix %d/%d (%d steps)" % (cpus, nodes, steps), _label(r),
                                  _num(r.get("wakes_idle")) + _num(r.get("wake_tick")),
                                  r.get("lower_bound"), r.get("wake_hier"),
                                  r.get("hier_empty"), r.get("late_l0_p99_j"),
                                  r.get("res_1ms_pct"), r.get("res_10ms_pct")),
                             rc=rc, lost=_num(r.get("lost")),
                             violations=_num(r.get("violations"))))
    return rows


def trace_files(root):
    files = sorted(glob.glob(os.path.join(root, "tests", "host", "replay", "*.trace*")))
    for f in os.environ.get("BENCH_TRACES", "").split(":"):
        if os.path.isdir(f):
            files += sorted(glob.glob(os.path.join(f, "*.trace*")))
        elif f:
            files.append(f)
    return files


def replay_rows(binary, files):
    rows = []
    for f in files:
        name = "replay " + re.sub(r"\.trace(\.gz)?$", "", os.path.basename(f))
        p = subprocess.run([binary, "--replay", f, "--model", "all"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            rows.append(dict(_row(name, "error", None, None), rc=p.returncode,
                             error=p.stdout.strip().splitlines()[-1:]))
            continue
        out = p.stdout
        for w in OTHER_WAKES:
            q = subprocess.run([binary, "--replay", f, "--model", "pull", "--tmigr-wake", w],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            out += "".join(l + "\n" for l in q.stdout.splitlines()
                           if l.startswith("replay model="))
        for line in out.splitlines():
            r = _kv(line)
            if line.startswith("replay model="):
                rows.append(dict(_row(name, _label(r), r.get("idle_wakes"), r.get("lower_bound"),
                                      r.get("hier_wakes"), r.get("hier_empty"),
                                      r.get("late_l0_p99_j"), r.get("res_1ms_pct"),
                                      r.get("res_10ms_pct")),
                                 timer_wakes=_num(r.get("timer_wakes")),
                                 timer_bound=_num(r.get("timer_bound")), rc=0))
            elif line.startswith("replay linux "):
                # Linux's own idle exits are not the replay's idle_wakes (every
                # interrupt ends one): its timer-served and empty exits.
                rows.append(dict(_row(name, "linux", None, None, late=r.get("late_p99_j"),
                                      r1=r.get("res_1ms_pct"), r10=r.get("res_10ms_pct")),
                                 idle_wakes_wheel=_num(r.get("idle_wakes_wheel")),
                                 idle_wakes_empty=_num(r.get("idle_wakes_empty")),
                                 remote_expiries=_num(r.get("remote_expiries")), rc=0))
    return rows


def _f(v, fmt="%g"):
    return "-" if v is None else fmt % v


def print_table(rows):
    print("   %-40s %-10s %8s %8s %6s %7s %7s %6s %5s %5s %5s" % (
        "workload", "model", "wakes", "bound", "ratio", "hier", "empty", "empty%", "p99_j",
        "res1", "res10"))
    for r in rows:
        print("   %-40s %-10s %8s %8s %6s %7s %7s %6s %5s %5s %5s" % (
            r["workload"][:40], r["model"], _f(r["idle_wakes"]), _f(r["lower_bound"]),
            _f(r["ratio"], "%.2f"), _f(r["hier_wakes"]), _f(r["hier_empty"]),
            _f(r["hier_empty_pct"], "%.1f"), _f(r["late_p99_j"]), _f(r["res_1ms_pct"]),
            _f(r["res_10ms_pct"])))
        if r["model"] == "linux":
            print("   %-40s %-5s idle_wakes_wheel=%s idle_wakes_empty=%s remote_expiries=%s" % (
                "", "", _f(r.get("idle_wakes_wheel")), _f(r.get("idle_wakes_empty")),
                _f(r.get("remote_expiries"))))


def pull_verdicts(rows):
    """Per workload: pull's idle wakes against push's and local's, and the bound.

    "fewest": strictly fewer than both; "at bound": tied, but at the lower
    bound (nothing fewer exists); else "NOT fewest".  The ratio to the bound
    is the issue's goal (<= 1.10).  "why" names each model that took no more
    wakes than pull while running its timers later (a higher lateness p99):
    a late expiry merges wakes, so such a win is not a like-for-like one.
    Under TCG that lateness is mostly the host delivering a vCPU's LAPIC
    timer late (a 12 ms stall in one traced all_idle run under push), which
    hits one run and not the next; compare several runs before reading it."""
    out = {}
    for wl in dict.fromkeys(r["workload"] for r in rows):
        by = {r["model"]: r for r in rows if r["workload"] == wl}
        w = {m: by[m]["idle_wakes"] for m in MODELS if m in by}
        if len(w) < len(MODELS) or None in w.values():
            continue
        if w["pull"] < w["push"] and w["pull"] < w["local"]:
            v = "fewest"
        elif w["pull"] <= min(w.values()) and w["pull"] == by["pull"]["lower_bound"]:
            v = "at bound"
        else:
            v = "NOT fewest"
        late = by["pull"].get("late_p99_j")
        why = ["%s ran late (p99 %g j, pull %g j)" % (m, by[m]["late_p99_j"], late)
               for m in MODELS if m != "pull" and w[m] <= w["pull"]
               and None not in (late, by[m].get("late_p99_j")) and by[m]["late_p99_j"] > late]
        out[wl] = {"verdict": v, "why": "; ".join(why), "pull_over_bound": by["pull"]["ratio"],
                   "pull_over_push": round(w["pull"] / w["push"], 3) if w["push"] else None,
                   "pull_over_local": round(w["pull"] / w["local"], 3) if w["local"] else None}
    return out
