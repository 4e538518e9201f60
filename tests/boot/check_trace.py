"""Checks of a boot's trace dump, for the trace entries of run_tests.py's matrix.

check_all(lines): the dump is well formed, every event of lib/trace_events.h
appears at least once (except EXCLUDED, each with its reason), nothing was
lost, and the converters turn it into JSON with a track per CPU and pull flows.

check_wrap(lines): a tiny buffer wrapped: records were lost (overwritten), yet
every record printed parses, the dump is in time order, and the counts add up.

Both return a list of problems (empty: pass).  Also a command:
    python3 tests/boot/check_trace.py [--wrap] build/test-logs/trace-all-smp8-2n.log
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import tracefmt  # noqa: E402

# Events that cannot fire in a boot yet, and why (docs/tracing.md says the same).
EXCLUDED = {}


def load_tool(name):
    """tools/NAME (a script without .py) as a module."""
    import importlib.machinery
    import importlib.util
    path = os.path.join(ROOT, "tools", name)
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def structure(trace):
    """Problems common to every dump."""
    p = []
    if not trace.complete:
        p.append("no '# trace end' marker")
    if trace.bad_lines:
        p.append("%d unparsable lines in the dump, first: %r" % (len(trace.bad_lines),
                                                                 trace.bad_lines[0][1]))
    if not trace.records:
        p.append("the dump holds no record")
    ncpus = int(trace.header.get("cpus", 0) or 0)
    known = set(tracefmt.event_names())
    last = None
    for r in trace.records:
        if r.cpu >= ncpus:
            p.append("record of CPU %d, but cpus=%d: %r" % (r.cpu, ncpus, r))
            break
        if r.event not in known:
            p.append("unknown event %r" % r.event)
            break
        if last is not None and r.ts < last:
            p.append("not in time order at line %d" % r.line)
            break
        last = r.ts
    if len(trace.cpu_stats) != ncpus:
        p.append("%d '# trace_cpu' lines for %d CPUs" % (len(trace.cpu_stats), ncpus))
    total = 0
    for cpu, s in sorted(trace.cpu_stats.items()):
        got = sum(1 for r in trace.records if r.cpu == cpu)
        total += got
        if s.get("dumped") != got:
            p.append("CPU %d: dumped=%s but %d records printed" % (cpu, s.get("dumped"), got))
        if s.get("written") != s.get("dumped", 0) + s.get("lost", 0):
            p.append("CPU %d: written != dumped + lost: %r" % (cpu, s))
        if s.get("dumped", 0) > int(trace.header.get("records_per_cpu", 0) or 0):
            p.append("CPU %d: more records than the ring holds: %r" % (cpu, s))
    if trace.footer.get("records") != str(total):
        p.append("'# trace end records=%s' but %d records" % (trace.footer.get("records"), total))
    return p


def converters(trace):
    """The JSON and SVG converters accept the dump and show what they should."""
    p = []
    t2p, t2s = load_tool("trace2perfetto"), load_tool("trace2svg")
    doc = json.loads(json.dumps(t2p.convert(trace)))
    ev = doc["traceEvents"]
    tracks = {e["tid"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
    if tracks != set(range(trace.ncpus)):
        p.append("trace2perfetto: tracks %r for %d CPUs" % (sorted(tracks), trace.ncpus))
    starts = {e["id"]: e for e in ev if e.get("ph") == "s"}
    ends = {e["id"]: e for e in ev if e.get("ph") == "f"}
    if not starts or set(starts) != set(ends):
        p.append("trace2perfetto: %d flow starts, %d flow ends" % (len(starts), len(ends)))
    if not any(e.get("ph") == "X" and e.get("name") == "idle" for e in ev):
        p.append("trace2perfetto: no idle slice")
    svg = t2s.render(trace)
    import xml.etree.ElementTree as ET
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as e:
        return p + ["trace2svg: not XML: %s" % e]
    ns = "{http://www.w3.org/2000/svg}"
    if len(root.findall(".//%sg[@class='cpu']" % ns)) != trace.ncpus:
        p.append("trace2svg: not one row per CPU")
    if not root.findall(".//%sline[@class='flow']" % ns):
        p.append("trace2svg: no pull arrow")
    return p


def check_all(lines):
    try:
        trace = tracefmt.parse(lines)
    except tracefmt.TraceError as e:
        return [str(e)]
    p = structure(trace)
    seen = {r.event for r in trace.records}
    names = tracefmt.event_names()
    for ev in EXCLUDED:
        if ev not in names:
            p.append("EXCLUDED names %r, which lib/trace_events.h does not define" % ev)
    missing = [n for n in names if n not in seen and n not in EXCLUDED]
    if missing:
        p.append("events never recorded: %s" % ", ".join(missing))
    lost = sum(s.get("lost", 0) for s in trace.cpu_stats.values())
    if lost:
        p.append("%d records lost: the buffer was too small for this check" % lost)
    return p + converters(trace)


def check_wrap(lines):
    try:
        trace = tracefmt.parse(lines)
    except tracefmt.TraceError as e:
        return [str(e)]
    p = structure(trace)
    if not any(s.get("lost", 0) > 0 for s in trace.cpu_stats.values()):
        p.append("no CPU lost a record: the ring did not wrap")
    if not any(s.get("dumped") == int(trace.header.get("records_per_cpu", -1))
               for s in trace.cpu_stats.values()):
        p.append("no CPU's ring was full at the dump")
    return p


def main(argv):
    wrap = "--wrap" in argv
    paths = [a for a in argv if a != "--wrap"]
    lines = tracefmt.read_input(paths[0] if paths else "-")
    problems = (check_wrap if wrap else check_all)(lines)
    for x in problems:
        print("check_trace: " + x)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
