"""Unit tests of tools/trace2perfetto, tools/trace2svg and tools/tracefmt.py on a
hand-made dump (run by run_tests.py, or: python3 -m unittest test_trace_tools)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import check_trace  # noqa: E402
import tracefmt  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"

# CPU 0 busy (the migrator), CPU 1 and 2 idle; CPU 1's timer is pulled by
# CPU 0, CPU 2 wakes by IPI and runs its own timer.  Serial noise around it.
LOG = """\
\x1b[2J# tinykernel: x86_64 timer pull-model kernel\r
# cpu cpu=0 apic=0 node=0 package=0 core=0 thread=0\r
# cpu cpu=1 apic=1 node=0 package=0 core=1 thread=0\r
# cpu cpu=2 apic=2 node=1 package=0 core=2 thread=0\r
KTAP version 1
# trace begin events=all cpus=3 buf=65536 rec_bytes=96 records_per_cpu=682 clock=ns
[001] 0.000001000 tmigr_cpu_idle: cpu=1 parent=0 nextevt=none
[001] 0.000002000 idle_enter: tick_stopped=1 next=none
[002] 0.000002500 idle_exit: reason=timer vector=0xec idle_ns=99
[002] 0.000003000 idle_enter: tick_stopped=1 next=9000000
[000] 0.000005000 tmigr_handle_remote: group=0 lvl=0
[000] 0.000005500 tmigr_handle_remote_cpu: cpu=1 parent=0
[000] 0.000006000 timer_expire_entry: timer=0xffff800000001000 function=0xffffffff80105e70 now=10 baseclk=10 base_cpu=1
[000] 0.000006200 timer_start: timer=0xffff800000001000 function=0xffffffff80105e70 expires=13 bucket_expiry=14 now=10 base_cpu=1 flags=0x1
[000] 0.000006500 timer_expire_exit: timer=0xffff800000001000
[000] 0.000007000 ipi_send: target=2 vector=0xf0
[002] 0.000007100 idle_exit: reason=ipi vector=0xf0 idle_ns=4100
[002] 0.000007200 ipi_receive: vector=0xf0
[002] 0.000007300 timer_expire_entry: timer=0xffff800000002000 function=0xffffffff80105e70 now=10 baseclk=10 base_cpu=2
[002] 0.000007400 timer_expire_exit: timer=0xffff800000002000
[002] 0.000007500 idle_enter: tick_stopped=1 next=none
[001] 0.000008000 idle_exit: reason=timer vector=0xec idle_ns=6000
[001] 0.000008100 tick_restart: reason=idle_exit
# trace_cpu cpu=0 written=6 dumped=6 lost=0
# trace_cpu cpu=1 written=4 dumped=4 lost=0
# trace_cpu cpu=2 written=7 dumped=7 lost=0
# trace end records=17 lost=0
# stat cpu=0 node=0 wakes=0
"""


def run_tool(name, stdin, *args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", name)] + list(args),
                          input=stdin.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60)


class ParseTest(unittest.TestCase):
    def test_records_and_counts(self):
        t = tracefmt.parse(LOG.splitlines())
        self.assertTrue(t.complete)
        self.assertEqual(t.ncpus, 3)
        self.assertEqual(len(t.records), 17)
        self.assertEqual(t.records[0].event, "tmigr_cpu_idle")
        self.assertEqual(t.records[0].ts, 1000)
        self.assertEqual(t.records[0].fields, {"cpu": "1", "parent": "0", "nextevt": "none"})
        self.assertEqual(t.records[6].num("base_cpu"), 1)
        self.assertEqual(t.nodes, {0: 0, 1: 0, 2: 1})
        self.assertEqual(t.cpu_stats[2], {"written": 7, "dumped": 7, "lost": 0})
        self.assertEqual(t.bad_lines, [])
        self.assertEqual(check_trace.structure(t), [])

    def test_model(self):
        m = tracefmt.model(tracefmt.parse(LOG.splitlines()))
        idle = [(s.cpu, s.start, s.end, s.args.get("reason")) for s in m.idle]
        # CPU 2's first record is an exit: idle since the start of the dump.
        self.assertIn((2, 1000, 2500, "timer"), idle)
        self.assertIn((1, 2000, 8000, "timer"), idle)
        self.assertIn((2, 3000, 7100, "ipi"), idle)
        self.assertIn((2, 7500, 8100, "none"), idle)        # still idle at the end
        self.assertEqual([(e.cpu, e.base_cpu, e.remote) for e in m.expiries],
                         [(0, 1, True), (2, 2, False)])
        self.assertEqual(len(m.flows), 1)

    def test_no_dump_is_an_error(self):
        with self.assertRaises(tracefmt.TraceError):
            tracefmt.parse(["KTAP version 1", "# stat cpu=0"])

    def test_cut_short_dump_is_used(self):
        lines = LOG.splitlines()
        t = tracefmt.parse(lines[:12])
        self.assertFalse(t.complete)
        self.assertEqual(len(t.records), 6)

    def test_event_names_from_the_header(self):
        names = tracefmt.event_names()
        self.assertEqual(len(names), 23)
        self.assertEqual(names[0], "tmigr_group_set")
        for n in ("tmigr_handle_remote_cpu", "timer_cancel", "idle_exit", "ipi_receive"):
            self.assertIn(n, names)


class PerfettoTest(unittest.TestCase):
    def setUp(self):
        p = run_tool("trace2perfetto", LOG)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.doc = json.loads(p.stdout)
        self.ev = self.doc["traceEvents"]

    def test_one_track_per_cpu(self):
        names = {e["tid"]: e["args"]["name"] for e in self.ev
                 if e["ph"] == "M" and e["name"] == "thread_name"}
        self.assertEqual(names, {0: "CPU 0 (node 0)", 1: "CPU 1 (node 0)", 2: "CPU 2 (node 1)"})
        for e in self.ev:
            self.assertEqual(e["pid"], 1)
            if e["ph"] != "M":
                self.assertIsInstance(e["ts"], (int, float))
                self.assertIn(e["tid"], names)

    def test_idle_spans(self):
        idle = sorted((e["tid"], e["ts"], e["dur"], e["args"]["reason"]) for e in self.ev
                      if e["ph"] == "X" and e["name"] == "idle")
        self.assertEqual(idle[0], (1, 2.0, 6.0, "timer"))
        self.assertEqual([i[0] for i in idle], [1, 2, 2, 2])

    def test_expiries_and_flow(self):
        x = [e for e in self.ev if e["ph"] == "X" and e["cat"].startswith("timer")]
        pulled = [e for e in x if e["tid"] == 0]
        self.assertEqual(len(pulled), 1)
        self.assertEqual(pulled[0]["ts"], 6.0)
        self.assertAlmostEqual(pulled[0]["dur"], 0.5)
        self.assertIn("CPU 1's", pulled[0]["name"])
        own = [e for e in x if e["tid"] == 2]
        self.assertEqual(len(own), 1)
        s = [e for e in self.ev if e["ph"] == "s"]
        f = [e for e in self.ev if e["ph"] == "f"]
        self.assertEqual(len(s), 1)
        self.assertEqual(len(f), 1)
        self.assertEqual(s[0]["id"], f[0]["id"])
        self.assertEqual(s[0]["tid"], 1)         # from the idle owner
        self.assertEqual(f[0]["tid"], 0)         # to the migrator
        self.assertEqual(f[0]["bp"], "e")
        # The arrow starts inside a slice on the owner's track.
        owner = [e for e in x if e["tid"] == 1]
        self.assertEqual(len(owner), 1)
        self.assertTrue(owner[0]["ts"] <= s[0]["ts"] <= owner[0]["ts"] + owner[0]["dur"])
        self.assertEqual(self.doc["otherData"]["flows"], 1)

    def test_instants(self):
        names = {e["name"] for e in self.ev if e["ph"] == "i"}
        self.assertTrue({"tmigr_cpu_idle", "ipi_send", "ipi_receive", "tick_restart",
                         "timer_start", "tmigr_handle_remote_cpu"} <= names)

    def test_file_output_and_no_dump(self):
        with tempfile.TemporaryDirectory() as d:
            log, out = os.path.join(d, "serial.log"), os.path.join(d, "t.json")
            with open(log, "w") as f:
                f.write(LOG)
            p = run_tool("trace2perfetto", "", log, "-o", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                self.assertIn("traceEvents", json.load(f))
        p = run_tool("trace2perfetto", "KTAP version 1\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"no trace dump", p.stderr)


class SvgTest(unittest.TestCase):
    def test_rows_and_marks(self):
        p = run_tool("trace2svg", LOG)
        self.assertEqual(p.returncode, 0, p.stderr)
        root = ET.fromstring(p.stdout)
        self.assertEqual(root.tag, SVG + "svg")
        rows = root.findall(".//%sg[@class='cpu']" % SVG)
        self.assertEqual([r.get("data-cpu") for r in rows], ["0", "1", "2"])
        self.assertEqual(len(root.findall(".//%srect[@class='idle']" % SVG)), 4)
        self.assertEqual(len(root.findall(".//%sline[@class='expiry remote']" % SVG)), 1)
        self.assertEqual(len(root.findall(".//%sline[@class='expiry local']" % SVG)), 1)
        self.assertEqual(len(root.findall(".//%sline[@class='flow']" % SVG)), 1)
        self.assertEqual(len(root.findall(".//%spath[@class='ipi_send']" % SVG)), 1)

    def test_window(self):
        p = run_tool("trace2svg", LOG, "--from", "0.006", "--to", "0.0065")
        self.assertEqual(p.returncode, 0, p.stderr)
        root = ET.fromstring(p.stdout)
        self.assertEqual(len(root.findall(".//%sline[@class='flow']" % SVG)), 0)
        self.assertEqual(len(root.findall(".//%sline[@class='expiry local']" % SVG)), 1)


class CheckTraceTest(unittest.TestCase):
    def test_missing_events_are_named(self):
        p = check_trace.check_all(LOG.splitlines())
        self.assertTrue(any("events never recorded:" in x and "tmigr_group_set" in x
                            for x in p), p)
        # Nothing is excluded any more: the offline event is asked for too.
        self.assertTrue(any("tmigr_cpu_offline" in x for x in p), p)

    def test_wrap_needs_a_loss(self):
        p = check_trace.check_wrap(LOG.splitlines())
        self.assertTrue(any("did not wrap" in x for x in p), p)

    def test_disorder_is_caught(self):
        lines = LOG.splitlines()
        i = next(k for k, l in enumerate(lines) if l.startswith("[000] 0.000005000"))
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        t = tracefmt.parse(lines)
        self.assertTrue(any("time order" in x for x in check_trace.structure(t)))


if __name__ == "__main__":
    unittest.main()
