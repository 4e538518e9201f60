"""tools/boot's hang dump: where every vCPU is when a boot passes --timeout.

Before QEMU is killed, its QMP socket (opened with qmp_args()) is asked to
stop the guest, for every vCPU's registers (HMP `info registers -a`) and for
a few words of guest memory (HMP `x`): the per-CPU area GS points at, which
gives the kernel's CPU number, and the frame-pointer chain from RBP.  Each
RIP and return address is resolved with addr2line against build/kernel.elf.
One line per vCPU goes to stderr (format: docs/hang.md):

    boot: hang cpu=1 rip=0xffffffff80114832 in hang_demo_spin (tests/guest/hang_demo_tests.c:32) if=0 <- ...

Bounded: every socket operation has a timeout and the whole dump a deadline
(DUMP_DEADLINE_S); what is not known by then is printed as '?'.
"""
import json
import os
import re
import socket
import subprocess
import time

DUMP_DEADLINE_S = 20.0
OP_TIMEOUT_S = 5.0
FRAMES = 6              # return addresses walked per vCPU
RESAMPLES = 5           # tries to catch a vCPU outside an interrupt
RESAMPLE_GAP_S = 0.05
STACK_WORDS = 128       # read from RSP up in one monitor command
PIPELINE = 64           # monitor commands in flight at once
KERNEL_HALF = 0xffff800000000000
SUN_PATH_MAX = 108      # sockaddr_un.sun_path, NUL included


class QmpError(Exception):
    pass


def qmp_args(sock_path):
    """QEMU arguments for a QMP server on @sock_path that QEMU does not wait on."""
    return ["-qmp", "unix:%s,server=on,wait=off" % sock_path]


class Qmp:
    """A minimal QMP client: one command at a time, each bounded in time."""

    def __init__(self, path, deadline):
        self.deadline = deadline
        self.buf = b""
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.settimeout(self._left())
            self.sock.connect(path)
            self._read()                    # the greeting
            self.cmd("qmp_capabilities")
        except BaseException:
            self.close()
            raise

    def _left(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise QmpError("dump deadline passed")
        return min(left, OP_TIMEOUT_S)

    def _read(self):
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line, self.buf = self.buf[:nl], self.buf[nl + 1:]
                msg = json.loads(line.decode("utf-8", "replace"))
                if "event" in msg:
                    continue
                return msg
            self.sock.settimeout(self._left())
            data = self.sock.recv(1 << 16)
            if not data:
                raise QmpError("QMP socket closed")
            self.buf += data

    def cmd(self, name, **arguments):
        req = {"execute": name}
        if arguments:
            req["arguments"] = arguments
        self.sock.settimeout(self._left())
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        msg = self._read()
        if "error" in msg:
            raise QmpError("%s: %s" % (name, msg["error"].get("desc", msg["error"])))
        return msg.get("return")

    def hmp(self, line):
        return self.cmd("human-monitor-command", **{"command-line": line}) or ""

    def hmp_many(self, lines):
        """Pipelined HMP commands: all sent, then all answers read, so hundreds
        of vCPUs cost a few scheduling round trips, not one each.  An answer
        that is an error is None."""
        out = []
        for i in range(0, len(lines), PIPELINE):
            chunk = lines[i:i + PIPELINE]
            self.sock.settimeout(self._left())
            self.sock.sendall(b"".join(json.dumps(
                {"execute": "human-monitor-command", "arguments": {"command-line": l}}
            ).encode() + b"\n" for l in chunk))
            for _ in chunk:
                msg = self._read()
                out.append(None if "error" in msg else msg.get("return") or "")
        return out

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def parse_registers(text):
    """`info registers -a` -> {qemu cpu index: {"rip", "rbp", "rflags", "gs", "hlt"}}."""
    cpus = {}
    for block in re.split(r"\r?\n(?=CPU#\d+\r?\n)", text.replace("\r", "")):
        m = re.match(r"\s*CPU#(\d+)\n", block)
        if not m:
            continue
        regs = {}
        for key, rx in (("rip", r"\b[RE]IP=([0-9a-f]+)"), ("rbp", r"\b[RE]BP=([0-9a-f]+)"),
                        ("rsp", r"\b[RE]SP=([0-9a-f]+)"),
                        ("rflags", r"\b[RE]FL=([0-9a-f]+)"),
                        ("gs", r"^GS =[0-9a-f]+ ([0-9a-f]+)"), ("hlt", r"\bHLT=(\d)")):
            r = re.search(rx, block, re.M)
            regs[key] = int(r.group(1), 16) if r else None
        cpus[int(m.group(1))] = regs
    return cpus


def parse_words(text):
    """HMP `x /Ngx ADDR` output -> list of ints (None if it could not read)."""
    words = []
    for line in text.replace("\r", "").splitlines():
        if ":" not in line or "Cannot access" in line:
            continue
        words += [int(w, 16) for w in re.findall(r"0x([0-9a-f]+)", line.split(":", 1)[1])]
    return words or None


def parse_addr2line(text):
    """`addr2line -a -f -C -i` output -> {addr: [(function, file:line), ...]}, innermost first."""
    out, cur = {}, None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if re.fullmatch(r"0x[0-9a-f]+", line):
            cur = int(line, 16)
            out[cur] = []
            i += 1
            continue
        if cur is not None and i + 1 < len(lines):
            out[cur].append((line, lines[i + 1].strip()))
            i += 2
            continue
        i += 1
    return out


def symbolize(elf, addrs, root):
    """{addr: [(function, relative file:line), ...]}; empty when addr2line cannot run."""
    addrs = sorted(set(a for a in addrs if a))
    if not addrs or not os.path.isfile(elf):
        return {}
    try:
        r = subprocess.run(["addr2line", "-a", "-f", "-C", "-i", "-e", elf] +
                           ["0x%x" % a for a in addrs], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=OP_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    res = parse_addr2line(r.stdout)
    for a, frames in res.items():
        res[a] = [(fn, os.path.relpath(loc, root) if loc.startswith(root + os.sep) else loc)
                  for fn, loc in frames]
    return res


def where(addr, syms):
    """'FUNCTION (FILE:LINE)' of the innermost frame, '?' if unknown."""
    frames = syms.get(addr) or [("??", "??:0")]
    fn, loc = frames[0]
    s = "%s (%s)" % (fn, loc)
    for ofn, oloc in frames[1:]:
        s += " inlined in %s (%s)" % (ofn, oloc)
    return s


def readable(addr):
    return bool(addr) and addr >= KERNEL_HALF and not addr & 7


def read_many(mon, reqs):
    """[(addr, nwords)] -> [words or None], one pipelined batch."""
    ok = [i for i, (a, _) in enumerate(reqs) if readable(a)]
    out = [None] * len(reqs)
    try:
        answers = mon.hmp_many(["x /%dgx 0x%x" % (reqs[i][1], reqs[i][0]) for i in ok])
    except QmpError:
        return out
    for i, text in zip(ok, answers):
        out[i] = parse_words(text) if text is not None else None
    return out


def read_words(mon, addr, n):
    return read_many(mon, [(addr, n)])[0]


def cpu_of(gs, w):
    """The kernel's CPU number from the words at @gs (self pointer, then cpu)."""
    if not w or len(w) < 2 or w[0] != gs:
        return None
    return w[1] & 0xffffffff


def walk_steps(rbp, rsp, stack, lo, hi):
    """Generator over the frame-pointer chain at @rbp: frames inside @stack
    (words read from @rsp up) cost nothing; for one beyond it, it yields the
    frame's address and is sent its two words.  Returns the return addresses
    inside [lo, hi)."""
    rets = []
    while len(rets) < FRAMES and readable(rbp):
        i = (rbp - rsp) // 8 if rsp and rbp >= rsp else -1
        w = stack[i:i + 2] if 0 <= i and i + 1 < len(stack) else (yield rbp)
        if not w or len(w) < 2 or not lo <= w[1] < hi:
            break
        rets.append(w[1])
        if w[0] <= rbp:
            break
        rbp = w[0]
    return rets


def walk_all(mon, frames, lo, hi):
    """{key: (rbp, rsp)} -> {key: return addresses}: one batch reads every
    stack, then one batch per level of frames that lie beyond them."""
    keys = list(frames)
    stacks = read_many(mon, [(frames[k][1], STACK_WORDS) for k in keys])
    gens, need, out = {}, {}, {}
    for k, stack in zip(keys, stacks):
        gens[k] = walk_steps(frames[k][0], frames[k][1], stack or [], lo, hi)
        step(gens, need, out, k, None)
    while need:
        batch = list(need.items())
        need.clear()
        for (k, _), w in zip(batch, read_many(mon, [(a, 2) for _, a in batch])):
            step(gens, need, out, k, w or [])
    return out


def step(gens, need, out, k, words):
    """Run walk @k on with @words (None: first step, or unreadable)."""
    try:
        need[k] = gens[k].send(words)
    except StopIteration as stop:
        out[k] = stop.value or []


def walk(mon, rbp, rsp, lo, hi):
    """Return addresses from the frame-pointer chain at @rbp, inside [lo, hi)."""
    return walk_all(mon, {0: (rbp, rsp)}, lo, hi)[0]


def text_range(elf):
    """[start, end) of the kernel's text from its symbols, or everything in the top half."""
    try:
        out = subprocess.run(["nm", elf], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, timeout=OP_TIMEOUT_S).stdout
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    syms = {m.group(2): int(m.group(1), 16)
            for m in re.finditer(r"^([0-9a-f]+) \w (\w+)$", out, re.M)}
    return syms.get("__text_start", KERNEL_HALF), syms.get("__text_end", 1 << 64)


def in_interrupt(rip, rets, syms):
    """Caught passing through interrupt entry (a tick), not stuck there for good?"""
    frames = [f for a in [rip] + [r - 1 for r in rets] for f in (syms.get(a) or [])]
    return any(fn in ("exception_dispatch", "irq_dispatch") or loc.startswith("arch/x86_64/isr.S")
               for fn, loc in frames)


def sample(mon, elf, root, text, only=None):
    """One stopped snapshot: {qemu index: dict(regs, cpu, rets)} and the symbols;
    @only: just these vCPUs."""
    regs = parse_registers(mon.hmp("info registers -a"))
    if only is not None:
        regs = {q: r for q, r in regs.items() if q in only}
    qs = list(regs)
    for q, w in zip(qs, read_many(mon, [(regs[q]["gs"], 2) for q in qs])):
        regs[q]["cpu"] = cpu_of(regs[q]["gs"], w)
    inside = {q: (r["rbp"], r["rsp"]) for q, r in regs.items() if r["cpu"] is not None}
    rets = walk_all(mon, inside, *text)
    for q, r in regs.items():
        r["rets"] = rets.get(q, [])
    # A return address is the instruction after the call: look up the call.
    addrs = [r["rip"] for r in regs.values()] + [a - 1 for r in regs.values() for a in r["rets"]]
    return regs, symbolize(elf, addrs, root)


def format_line(q, r, syms):
    cpu = r["cpu"] if r["cpu"] is not None else q
    line = "boot: hang cpu=%d rip=0x%x in %s" % (cpu, r["rip"] or 0, where(r["rip"], syms))
    if r["rflags"] is not None:
        line += " if=%d" % ((r["rflags"] >> 9) & 1)
    if r["hlt"]:
        line += " halted"
    if r["cpu"] is None:
        line += " vcpu=%d (no per-CPU area: not in the kernel)" % q
    elif r["cpu"] != q:
        line += " vcpu=%d" % q
    for a in r["rets"]:
        fn, loc = (syms.get(a - 1) or [("??", "??:0")])[0]
        line += " <- %s (%s)" % (fn, loc)
    return line


def resample(mon, elf, root, text, regs, syms, deadline):
    """Sample again the vCPUs caught in interrupt entry; returns the rounds."""
    rounds = 0
    while rounds < RESAMPLES:
        busy = set(q for q, r in regs.items() if in_interrupt(r["rip"], r["rets"], syms))
        if not busy or time.monotonic() + 2 * OP_TIMEOUT_S > deadline:
            break
        mon.cmd("cont")
        time.sleep(RESAMPLE_GAP_S)
        mon.cmd("stop")
        rounds += 1
        again, more = sample(mon, elf, root, text, busy)
        regs.update(again)
        syms.update(more)
    return rounds


def dump(sock_path, elf, root, err):
    """Print one `boot: hang` line per vCPU to @err; never raises, never hangs."""
    t0 = time.monotonic()
    deadline = t0 + DUMP_DEADLINE_S
    resampled = 0
    mon = None
    try:
        mon = Qmp(sock_path, deadline)
        mon.cmd("stop")
        text = text_range(elf)
        regs, syms = sample(mon, elf, root, text)
        try:
            resampled = resample(mon, elf, root, text, regs, syms, deadline)
        except QmpError:
            pass            # keep the first snapshot
        for q, r in sorted(regs.items(), key=lambda kv: (kv[1]["cpu"] is None,
                                                          kv[1]["cpu"] or kv[0], kv[0])):
            err.write(format_line(q, r, syms) + "\n")
        err.write("boot: hang dump: %d vCPUs in %.1fs, %d resamples; cpu= is the kernel's "
                  "CPU number (docs/hang.md)\n" % (len(regs), time.monotonic() - t0, resampled))
    except (OSError, ValueError, QmpError) as e:
        err.write("boot: hang dump failed: %s\n" % e)
    finally:
        if mon:
            mon.close()
        err.flush()
