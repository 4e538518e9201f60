"""Minimal KTAP version 1 parser for the kernel's serial output (KUnit layout).

Layout understood:

    KTAP version 1
    1..N
        KTAP version 1
        # Subtest: SUITE
        1..M
        ok 1 case
        not ok 2 case
        ok 3 case # SKIP reason
    ok 1 SUITE            (or "not ok 1 SUITE")

Lines that are not KTAP (boot messages, GRUB escape sequences, "# " diagnostics,
"# stat ..." lines) are ignored.  Cases nested deeper than one level are ignored.
"""
import re

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>78]")
RESULT_RE = re.compile(r"^(not ok|ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*))?$")
PLAN_RE = re.compile(r"^1\.\.(\d+)\s*(?:#.*)?$")
VERSION_RE = re.compile(r"^(?:KTAP version 1|TAP version \d+)\s*$")
SUBTEST_RE = re.compile(r"^#\s*Subtest:\s*(.*?)\s*$")

PASS, FAIL, SKIP = "pass", "fail", "skip"


class Case:
    def __init__(self, number, name, status, directive=""):
        self.number, self.name, self.status, self.directive = number, name, status, directive

    def __repr__(self):
        return "Case(%r, %r, %r)" % (self.number, self.name, self.status)


class Suite:
    def __init__(self, name=None):
        self.name = name
        self.plan = None
        self.cases = []
        self.result = None      # PASS / FAIL / SKIP from the closing line, None if missing
        self.number = None

    def __repr__(self):
        return "Suite(%r, plan=%r, cases=%r, result=%r)" % (self.name, self.plan, self.cases,
                                                            self.result)


class Result:
    def __init__(self):
        self.found = False      # saw the top-level "KTAP version 1"
        self.plan = None        # top-level plan count
        self.suites = []
        self.errors = []        # structural problems, human readable

    @property
    def ok(self):
        return self.found and not self.errors

    def cases(self):
        """Yield (suite_name, case) for every nested case."""
        for s in self.suites:
            for c in s.cases:
                yield s.name, c

    def counts(self):
        n = {PASS: 0, FAIL: 0, SKIP: 0}
        for _, c in self.cases():
            n[c.status] += 1
        return n


def clean_line(line):
    line = ANSI_RE.sub("", line)
    return line.replace("\r", "").rstrip("\n").rstrip()


def indent_of(line):
    return len(line) - len(line.lstrip(" "))


def _status(word, directive):
    if directive and re.match(r"(?i)skip\b", directive):
        return SKIP
    return PASS if word == "ok" else FAIL


def parse_result_line(text):
    """'ok 3 name # SKIP why' -> (status, number, name, directive) or None."""
    m = RESULT_RE.match(text)
    if not m:
        return None
    word, num, name, directive = m.group(1), int(m.group(2)), (m.group(3) or "").strip(), \
        (m.group(4) or "").strip()
    return _status(word, directive), num, name, directive


def parse(text):
    """Parse serial output (str or list of lines) into a Result."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    res = Result()
    cur = None              # Suite being read
    pending_name = None     # "# Subtest:" seen at top level before the nested header
    for raw in lines:
        line = clean_line(raw)
        if not line.strip():
            continue
        ind = indent_of(line)
        body = line.strip()
        if not res.found:
            # the version line may follow garbage on the same line (GRUB escapes)
            if ind == 0 and VERSION_RE.match(body):
                res.found = True
            elif body.endswith("KTAP version 1") and not raw.startswith(" "):
                res.found = True
            continue
        if ind == 0:
            if PLAN_RE.match(body):
                if res.plan is not None:
                    res.errors.append("second top-level plan %r" % body)
                else:
                    res.plan = int(PLAN_RE.match(body).group(1))
                continue
            m = SUBTEST_RE.match(body)
            if m:
                pending_name = m.group(1)
                continue
            r = parse_result_line(body)
            if r:
                status, num, name, directive = r
                s = cur
                if s is None:       # a suite with no nested output at all
                    s = Suite(name)
                    res.suites.append(s)
                if s.name is None:
                    s.name = name
                elif name and s.name != name:
                    res.errors.append("suite %r closed as %r" % (s.name, name))
                s.result, s.number = status, num
                if s.plan is not None and s.plan != len(s.cases):
                    res.errors.append("suite %s: plan 1..%d but %d cases" %
                                      (s.name, s.plan, len(s.cases)))
                if status == PASS and any(c.status == FAIL for c in s.cases):
                    res.errors.append("suite %s: reported ok with failing cases" % s.name)
                if num != len(res.suites):
                    res.errors.append("suite %s: number %d, expected %d" %
                                      (s.name, num, len(res.suites)))
                cur = None
                continue
            if VERSION_RE.match(body):
                res.errors.append("second top-level version line")
            continue        # other unindented text: diagnostics or kernel messages
        if ind == 4:
            if VERSION_RE.match(body) or (cur is None and
                                          (SUBTEST_RE.match(body) or PLAN_RE.match(body) or
                                           parse_result_line(body))):
                if cur is not None and cur.result is None:
                    res.errors.append("suite %s: no result line" % cur.name)
                cur = Suite(pending_name)
                pending_name = None
                res.suites.append(cur)
                if VERSION_RE.match(body):
                    continue
            m = SUBTEST_RE.match(body)
            if m:
                cur.name = m.group(1)
                continue
            m = PLAN_RE.match(body)
            if m:
                cur.plan = int(m.group(1))
                continue
            r = parse_result_line(body)
            if r:
                status, num, name, directive = r
                if num != len(cur.cases) + 1:
                    res.errors.append("suite %s: case %r numbered %d, expected %d" %
                                      (cur.name, name, num, len(cur.cases) + 1))
                cur.cases.append(Case(num, name, status, directive))
            continue
        # deeper nesting (parameterised cases) and other text: ignored
    if not res.found:
        res.errors.append("no 'KTAP version 1' line")
        return res
    if cur is not None:
        res.errors.append("suite %s: no result line (output ended inside the suite)" % cur.name)
    for i, s in enumerate(res.suites):
        if s.name is None:
            s.name = "suite%d" % (i + 1)
    if res.plan is None:
        res.errors.append("no top-level plan line")
    elif res.plan != len(res.suites):
        res.errors.append("top-level plan 1..%d but %d suites" % (res.plan, len(res.suites)))
    return res
