"""Unit tests of tools/hangdump.py, tools/boot's hang dump, against canned monitor
output and a fake QMP server (run by run_tests.py, or: python3 -m unittest
test_hangdump).  The real thing is the boot matrix's hang-demo entry."""
import io
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import hangdump  # noqa: E402

ELF = os.path.join(ROOT, "build", "kernel.elf")


def regs_block(idx, rip, rbp, gs, rfl="00000246", hlt=0):
    return ("\r\nCPU#%d\r\nRAX=0000000000000000 RBX=0000000000000000\r\n"
            "RSI=0000000000000000 RDI=0000000000000000 RBP=%016x RSP=ffff800000378f88\r\n"
            "RIP=%016x RFL=%s [---Z-P-] CPL=0 II=0 A20=1 SMM=0 HLT=%d\r\n"
            "ES =0010 0000000000000000 ffffffff 00cf9300\r\n"
            "GS =0000 %016x 0000ffff 00009300\r\n"
            "CR0=80010011 CR2=0000000000000000\r\n" % (idx, rbp, rip, rfl, hlt, gs))


class Parsers(unittest.TestCase):
    def test_registers_of_every_vcpu(self):
        text = regs_block(0, 0xffffffff801146d2, 0xffffffff80130e60, 0xffff80000034b000) + \
            regs_block(1, 0xffffffff80114832, 0, 0, rfl="00000006", hlt=1)
        r = hangdump.parse_registers(text)
        self.assertEqual(sorted(r), [0, 1])
        self.assertEqual(r[0]["rip"], 0xffffffff801146d2)
        self.assertEqual(r[0]["rbp"], 0xffffffff80130e60)
        self.assertEqual(r[0]["gs"], 0xffff80000034b000)
        self.assertEqual(r[1]["rflags"] >> 9 & 1, 0)
        self.assertEqual(r[1]["hlt"], 1)

    def test_words_and_unreadable_memory(self):
        self.assertEqual(hangdump.parse_words(
            "ffffffff80130e60: 0xffffffff80130e80 0xffffffff801147bf\r\n"),
            [0xffffffff80130e80, 0xffffffff801147bf])
        self.assertIsNone(hangdump.parse_words("Cannot access memory\r\n"))

    def test_addr2line_groups_inlined_frames(self):
        out = ("0xffffffff80100010\nwait\nkernel/smp_call.c:40\nsmp_call_wait\n"
               "kernel/smp_call.c:50\n0xffffffff80100020\nkmain\nkernel/main.c:1\n")
        r = hangdump.parse_addr2line(out)
        self.assertEqual(r[0xffffffff80100010], [("wait", "kernel/smp_call.c:40"),
                                                 ("smp_call_wait", "kernel/smp_call.c:50")])
        self.assertEqual(hangdump.where(0xffffffff80100010, r),
                         "wait (kernel/smp_call.c:40) inlined in smp_call_wait "
                         "(kernel/smp_call.c:50)")
        self.assertEqual(hangdump.where(0x1234, r), "?? (??:0)")

    def test_line_names_kernel_cpu_and_vcpu_when_they_differ(self):
        syms = {0x10: [("spin", "a.c:3")], 0x1f: [("caller", "b.c:9")]}
        r = {"rip": 0x10, "rflags": 0x202, "hlt": 0, "cpu": 5, "rets": [0x20]}
        self.assertEqual(hangdump.format_line(2, r, syms),
                         "boot: hang cpu=5 rip=0x10 in spin (a.c:3) if=1 vcpu=2 "
                         "<- caller (b.c:9)")
        r = dict(r, cpu=None, rets=[])
        self.assertIn("cpu=2 ", hangdump.format_line(2, r, syms))
        self.assertIn("vcpu=2 (no per-CPU area", hangdump.format_line(2, r, syms))

    def test_interrupt_entry_is_resampled(self):
        syms = {0x10: [("spin", "a.c:3")], 0x1f: [("exception_dispatch", "arch/x86_64/idt.c:9")]}
        self.assertTrue(hangdump.in_interrupt(0x10, [0x20], syms))
        self.assertFalse(hangdump.in_interrupt(0x10, [], syms))


class FakeMemory:
    """hmp() for `x /Ngx ADDR` from a dict of 8-byte words; counts commands."""

    def __init__(self, words):
        self.words, self.cmds, self.batches = words, [], 0

    def hmp_many(self, lines):
        self.batches += 1
        return [self.hmp(line) for line in lines]

    def hmp(self, line):
        self.cmds.append(line)
        n, addr = re.fullmatch(r"x /(\d+)gx 0x([0-9a-f]+)", line).groups()
        addr = int(addr, 16)
        got = [self.words.get(addr + 8 * i) for i in range(int(n))]
        if got[0] is None:
            return "Cannot access memory\r\n"
        return "".join("%x: 0x%016x\r\n" % (addr + 8 * i, w) for i, w in enumerate(got)
                       if w is not None)


class Walk(unittest.TestCase):
    def test_frames_in_the_stack_read_cost_no_more_commands(self):
        rsp, lo, hi = 0xffff800000100000, 0xffffffff80100000, 0xffffffff80200000
        far = rsp + 8 * hangdump.STACK_WORDS + 64       # beyond the first read
        words = {rsp + 8 * i: 0 for i in range(hangdump.STACK_WORDS)}
        words.update({rsp + 16: rsp + 48, rsp + 24: lo + 0x10,    # frame 1
                      rsp + 48: far, rsp + 56: lo + 0x20,         # frame 2
                      far: 0, far + 8: lo + 0x30})                # frame 3, read alone
        mem = FakeMemory(words)
        self.assertEqual(hangdump.walk(mem, rsp + 16, rsp, lo, hi),
                         [lo + 0x10, lo + 0x20, lo + 0x30])
        self.assertEqual(len(mem.cmds), 2)

    def test_many_vcpus_cost_one_batch_per_level(self):
        lo, hi = 0xffffffff80100000, 0xffffffff80200000
        words, frames = {}, {}
        for k in range(200):
            rsp = 0xffff800000100000 + k * 0x10000
            far = rsp + 0x8000
            words.update({rsp + 8 * i: 0 for i in range(hangdump.STACK_WORDS)})
            words.update({rsp: far, rsp + 8: lo + k, far: 0, far + 8: lo + 0x1000 + k})
            frames[k] = (rsp, rsp)
        mem = FakeMemory(words)
        rets = hangdump.walk_all(mem, frames, lo, hi)
        self.assertEqual(rets[199], [lo + 199, lo + 0x1000 + 199])
        self.assertEqual(mem.batches, 2)
        self.assertEqual(len(mem.cmds), 400)

    def test_walk_stops_outside_the_text(self):
        rsp = 0xffff800000100000
        mem = FakeMemory({rsp: rsp + 16, rsp + 8: 0x1234})
        self.assertEqual(hangdump.walk(mem, rsp, rsp, 0xffffffff80100000,
                                       0xffffffff80200000), [])


class FakeQmp:
    """A QMP server on a Unix socket: greeting, then @answer(request) per line
    (None: never answer)."""

    def __init__(self, answer):
        self.dir = tempfile.mkdtemp(prefix="fakeqmp-")
        self.path = os.path.join(self.dir, "qmp.sock")
        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.srv.bind(self.path)
        self.srv.listen(1)
        self.answer = answer
        self.seen = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        try:
            conn, _ = self.srv.accept()
        except OSError:
            return
        with conn:
            self.talk(conn)

    def talk(self, conn):
        conn.sendall(b'{"QMP": {"version": {}, "capabilities": []}}\n')
        buf = b""
        while True:
            data = conn.recv(4096)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                req = json.loads(line)
                self.seen.append(req)
                ret = self.answer(req)
                if ret is None:
                    continue
                conn.sendall(json.dumps({"return": ret}).encode() + b"\n")

    def close(self):
        self.srv.close()
        try:
            os.unlink(self.path)
            os.rmdir(self.dir)
        except OSError:
            pass


def symbol(name):
    out = subprocess.run(["nm", ELF], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"^([0-9a-f]+) \w %s$" % re.escape(name), out, re.M)
    return int(m.group(1), 16) if m else None


class Dump(unittest.TestCase):
    def test_silent_monitor_is_cut_off(self):
        old = hangdump.OP_TIMEOUT_S, hangdump.DUMP_DEADLINE_S
        hangdump.OP_TIMEOUT_S, hangdump.DUMP_DEADLINE_S = 0.3, 1.0
        srv = FakeQmp(lambda req: {} if req["execute"] == "qmp_capabilities" else None)
        err = io.StringIO()
        t0 = time.monotonic()
        try:
            hangdump.dump(srv.path, ELF, ROOT, err)
        finally:
            hangdump.OP_TIMEOUT_S, hangdump.DUMP_DEADLINE_S = old
            srv.close()
        self.assertLess(time.monotonic() - t0, 2.0)
        self.assertRegex(err.getvalue(), r"^boot: hang dump failed: ")

    def test_no_socket_is_a_message_not_an_exception(self):
        err = io.StringIO()
        hangdump.dump("/nonexistent/qmp.sock", ELF, ROOT, err)
        self.assertRegex(err.getvalue(), r"^boot: hang dump failed: ")

    @unittest.skipUnless(os.path.isfile(ELF), "needs build/kernel.elf")
    def test_dump_resolves_rip_and_maps_the_kernel_cpu(self):
        spin, wait = symbol("hang_demo_spin"), symbol("hang_demo_wait")
        self.assertIsNotNone(spin)
        gs0, gs1 = 0xffff800000010000, 0xffff800000010100
        frame = 0xffff800000020000
        mem = {gs0: [gs0, 7], gs1: [gs1, 3], frame: [0, wait + 4]}
        regs = regs_block(0, spin + 2, frame, gs0) + regs_block(1, wait + 2, 0, gs1)

        def answer(req):
            if req["execute"] != "human-monitor-command":
                return {}
            cmd = req["arguments"]["command-line"]
            if cmd == "info registers -a":
                return regs
            m = re.fullmatch(r"x /\d+gx 0x([0-9a-f]+)", cmd)
            words = mem.get(int(m.group(1), 16)) if m else None
            if not words:
                return "Cannot access memory\r\n"
            return "%s: %s\r\n" % (m.group(1), " ".join("0x%016x" % w for w in words))
        srv = FakeQmp(answer)
        err = io.StringIO()
        try:
            hangdump.dump(srv.path, ELF, ROOT, err)
        finally:
            srv.close()
        lines = err.getvalue().splitlines()
        self.assertRegex(lines[0], r"^boot: hang cpu=3 rip=0x%x in hang_demo_wait "
                         r"\(tests/guest/hang_demo_tests\.c:\d+\) if=1 vcpu=1$" % (wait + 2))
        self.assertRegex(lines[1], r"^boot: hang cpu=7 rip=0x%x in hang_demo_spin "
                         r"\(tests/guest/hang_demo_tests\.c:\d+\) if=1 vcpu=0 "
                         r"<- hang_demo_wait " % (spin + 2))
        self.assertEqual(srv.seen[1]["execute"], "stop")

    @unittest.skipUnless(os.path.isfile(ELF), "needs build/kernel.elf")
    def test_vcpu_in_interrupt_entry_is_sampled_again(self):
        spin, irq = symbol("hang_demo_spin"), symbol("irq_dispatch")
        gs = 0xffff800000010000
        snaps = [regs_block(0, irq + 2, 0, gs), regs_block(0, spin + 2, 0, gs)]
        calls = []

        def answer(req):
            if req["execute"] != "human-monitor-command":
                calls.append(req["execute"])
                return {}
            cmd = req["arguments"]["command-line"]
            if cmd == "info registers -a":
                return snaps[min(calls.count("cont"), 1)]
            if cmd == "x /2gx 0x%x" % gs:
                return "%x: 0x%016x 0x%016x\r\n" % (gs, gs, 4)
            return "Cannot access memory\r\n"
        srv = FakeQmp(answer)
        err = io.StringIO()
        try:
            hangdump.dump(srv.path, ELF, ROOT, err)
        finally:
            srv.close()
        self.assertRegex(err.getvalue(), r"^boot: hang cpu=4 rip=0x%x in hang_demo_spin " % (spin + 2))
        self.assertIn("1 resamples", err.getvalue())


if __name__ == "__main__":
    unittest.main()
