"""Read the kernel's trace dump (docs/tracing.md) out of a serial log.

Shared by tools/trace2perfetto, tools/trace2svg and tests/boot/check_trace.py;
Python standard library only.

    t = tracefmt.parse(open("serial.log").read().splitlines())
    t.records      # [Record(cpu, ts, event, fields)], in dump (= time) order
    m = tracefmt.model(t)
    m.idle         # [Span] per CPU: HLT periods with their wake reason
    m.expiries     # [Expiry]: timer callbacks, local or pulled
    m.flows        # [Expiry] the pulled ones: base_cpu's timer run on cpu
"""
import os
import re
import subprocess

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>78]")
BEGIN_RE = re.compile(r"^# trace begin(?: (.*))?$")
END_RE = re.compile(r"^# trace end(?: (.*))?$")
CPU_STAT_RE = re.compile(r"^# trace_cpu (.*)$")
REC_RE = re.compile(r"^\[(\d+)\] (\d+)\.(\d{9}) ([A-Za-z0-9_]+): ?(.*)$")
CPU_LINE_RE = re.compile(r"^# cpu cpu=(\d+) .*\bnode=(\d+)")

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS_H = os.path.join(os.path.dirname(HERE), "lib", "trace_events.h")


class TraceError(Exception):
    pass


def clean(line):
    return ANSI_RE.sub("", line).replace("\r", "").rstrip("\n").rstrip()


def kv(text):
    """'a=1 b=x' -> {'a': '1', 'b': 'x'}; words without '=' are ignored."""
    out = {}
    for w in (text or "").split():
        k, eq, v = w.partition("=")
        if eq:
            out[k] = v
    return out


def event_names(path=EVENTS_H):
    """The event names of lib/trace_events.h, in id order."""
    with open(path) as f:
        text = f.read()
    body = text[text.index("#define TRACE_EVENTS(X)"):]
    body = body[:body.index("enum trace_event_id")]
    return re.findall(r"\bX\(([a-z0-9_]+),", body)


class Record:
    __slots__ = ("cpu", "ts", "event", "fields", "line")

    def __init__(self, cpu, ts, event, fields, line=0):
        self.cpu, self.ts, self.event, self.fields, self.line = cpu, ts, event, fields, line

    def num(self, key, default=None):
        """Field @key as an int (0x.. hex, -1, decimal); None/default if absent or 'none'."""
        v = self.fields.get(key)
        if v is None or v == "none":
            return default
        try:
            return int(v, 0)
        except ValueError:
            return default

    def __repr__(self):
        return "Record(%d, %d, %r, %r)" % (self.cpu, self.ts, self.event, self.fields)


class Trace:
    def __init__(self):
        self.header = {}        # from "# trace begin"
        self.footer = {}        # from "# trace end"
        self.cpu_stats = {}     # cpu -> {written, dumped, lost}
        self.records = []
        self.nodes = {}         # cpu -> node, from the "# cpu" boot lines
        self.bad_lines = []     # (line number, text) inside the dump that did not parse
        self.complete = False   # saw the end marker

    @property
    def ncpus(self):
        n = int(self.header.get("cpus", 0) or 0)
        for r in self.records:
            n = max(n, r.cpu + 1)
        return n

    def start(self):
        return self.records[0].ts if self.records else 0

    def end(self):
        return max((r.ts for r in self.records), default=0)


def parse(lines):
    """Parse the last trace dump in @lines (an iterable of str).  Raises
    TraceError if there is none."""
    trace, cur = None, None
    nodes = {}
    for i, raw in enumerate(lines, 1):
        line = clean(raw)
        m = CPU_LINE_RE.match(line)
        if m:
            nodes[int(m.group(1))] = int(m.group(2))
            continue
        m = BEGIN_RE.match(line)
        if m:
            cur = Trace()
            cur.header = kv(m.group(1))
            continue
        if cur is None:
            continue
        m = END_RE.match(line)
        if m:
            cur.footer = kv(m.group(1))
            cur.complete = True
            trace, cur = cur, None
            continue
        m = REC_RE.match(line)
        if m:
            ts = int(m.group(2)) * 1000000000 + int(m.group(3))
            cur.records.append(Record(int(m.group(1)), ts, m.group(4), kv(m.group(5)), i))
            continue
        m = CPU_STAT_RE.match(line)
        if m:
            d = kv(m.group(1))
            try:
                cur.cpu_stats[int(d["cpu"])] = {k: int(v) for k, v in d.items() if k != "cpu"}
            except (KeyError, ValueError):
                cur.bad_lines.append((i, line))
            continue
        if line.startswith("[") or line.startswith("# trace"):
            cur.bad_lines.append((i, line))
    if trace is None:
        trace = cur         # a dump cut short (timeout, panic): use what there is
    if trace is None:
        raise TraceError("no trace dump ('# trace begin') in the input")
    trace.nodes = nodes
    return trace


class Span:
    __slots__ = ("cpu", "start", "end", "args", "open_start", "open_end")

    def __init__(self, cpu, start, end, args, open_start=False, open_end=False):
        self.cpu, self.start, self.end, self.args = cpu, start, end, args
        self.open_start, self.open_end = open_start, open_end


class Expiry:
    __slots__ = ("cpu", "base_cpu", "start", "end", "timer", "function", "args")

    def __init__(self, cpu, base_cpu, start, end, timer, function, args):
        self.cpu, self.base_cpu, self.start, self.end = cpu, base_cpu, start, end
        self.timer, self.function, self.args = timer, function, args

    @property
    def remote(self):
        return self.base_cpu is not None and self.base_cpu != self.cpu


class Model:
    def __init__(self):
        self.idle = []          # Span
        self.expiries = []      # Expiry
        self.instants = []      # Record, every record not folded into a span
        self.ncpus = 0
        self.start = self.end = 0

    @property
    def flows(self):
        return [e for e in self.expiries if e.remote]

    def idle_span_at(self, cpu, ts):
        for s in self.idle:
            if s.cpu == cpu and s.start <= ts <= s.end:
                return s
        return None


def model(trace):
    """Fold the records into idle spans, timer expiries and the rest."""
    m = Model()
    m.ncpus, m.start, m.end = trace.ncpus, trace.start(), trace.end()
    idle_open = {}          # cpu -> Record of idle_enter
    seen = set()            # CPUs with a record so far
    running = {}            # cpu -> [(timer, Record of entry)]
    for r in trace.records:
        if r.event == "idle_enter":
            prev = idle_open.pop(r.cpu, None)
            if prev is not None:    # no exit recorded: close it here
                m.idle.append(Span(r.cpu, prev.ts, r.ts, dict(prev.fields, reason="?")))
            idle_open[r.cpu] = r
        elif r.event == "idle_exit":
            enter = idle_open.pop(r.cpu, None)
            args = dict(r.fields)
            if enter is not None:
                args.update({"enter_" + k: v for k, v in enter.fields.items()})
                m.idle.append(Span(r.cpu, enter.ts, r.ts, args))
            elif r.cpu not in seen:
                # Idle since before the oldest record kept for this CPU.
                m.idle.append(Span(r.cpu, m.start, r.ts, args, open_start=True))
            else:
                m.instants.append(r)
        elif r.event == "timer_expire_entry":
            running.setdefault(r.cpu, []).append((r.fields.get("timer"), r))
        elif r.event == "timer_expire_exit":
            stack = running.get(r.cpu, [])
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == r.fields.get("timer"):
                    _, e = stack.pop(i)
                    m.expiries.append(Expiry(r.cpu, e.num("base_cpu"), e.ts, r.ts,
                                             e.fields.get("timer"), e.fields.get("function"),
                                             dict(e.fields)))
                    break
            else:
                m.instants.append(r)
        else:
            m.instants.append(r)
        seen.add(r.cpu)
    for cpu, enter in idle_open.items():
        m.idle.append(Span(cpu, enter.ts, max(m.end, enter.ts), dict(enter.fields, reason="none"),
                           open_end=True))
    for cpu, stack in running.items():
        for _, e in stack:
            m.expiries.append(Expiry(cpu, e.num("base_cpu"), e.ts, e.ts, e.fields.get("timer"),
                                     e.fields.get("function"), dict(e.fields)))
    m.idle.sort(key=lambda s: (s.start, s.cpu))
    m.expiries.sort(key=lambda e: (e.start, e.cpu))
    return m


def symbolizer(elf):
    """A function address -> name map through addr2line, or {} without it."""
    def resolve(addrs):
        addrs = sorted(set(a for a in addrs if a))
        if not elf or not addrs or not os.path.exists(elf):
            return {}
        try:
            p = subprocess.run(["addr2line", "-f", "-e", elf] + addrs, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return {}
        out = p.stdout.splitlines()
        names = {}
        for i, a in enumerate(addrs):
            if 2 * i < len(out) and out[2 * i] not in ("??", ""):
                names[a] = out[2 * i]
        return names
    return resolve


def read_input(path):
    """Lines of @path ('-' for stdin), decoding whatever bytes QEMU gave us."""
    import sys
    if path in (None, "-"):
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8", "replace").splitlines()
