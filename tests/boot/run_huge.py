#!/usr/bin/env python3
"""`make test-huge`: boot 256, 512 and 1024 CPUs (NUMA nodes of 64) under TCG.

Each boot runs every self-test and a short one_busy scenario, and this prints its wall
time (QEMU's firmware included), the `# tmigr levels=` line (the hierarchy's shape) and
the `# smp` line.  Above 255 CPUs the guest needs x2APIC, which QEMU emulates under TCG
from 9.0 on: on Debian 12 run `tools/deps --qemu=both` and point QEMU= at
build/qemu10/qemu-system-x86_64 (or any qemu-system-x86_64 >= 9.0).  With an older QEMU this says so and exits 64, as tools/boot
does.  Not part of `make test`: the three boots take minutes on a 2-core machine.

Last line: "N passed, N failed", counting KTAP cases and one "/boot" entry per boot.
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ktap  # noqa: E402

BOOT = os.path.join(ROOT, "tools", "boot")
LOGDIR = os.path.join(ROOT, "build", "test-logs")
NODE_CPUS = 64
SIZES = [256, 512, 1024]
CMDLINE = "scenario=one_busy,duration_ms=300"
EXIT_USAGE = 64


def numa_lists(cpus):
    return ":".join("%d-%d" % (lo, min(lo + NODE_CPUS, cpus) - 1)
                    for lo in range(0, cpus, NODE_CPUS))


def boot_args(cpus, timeout, kernel):
    # 2 GiB: about 80 KiB a CPU plus 32 MiB a node is needed (tools/boot's default
    # would do); more leaves room for trace= buffers.  QEMU allocates it lazily.
    a = ["--accel", "tcg", "--smp", str(cpus), "--numa", numa_lists(cpus), "--mem", "2G",
         "--timeout", str(timeout), "--expect-topology", "--cmdline", CMDLINE]
    if kernel:
        a += ["--kernel", kernel]
    return a


def first(lines, prefix):
    for l in lines:
        if l.startswith(prefix):
            return l
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="CPU counts to boot (default %(default)s)")
    ap.add_argument("--timeout", type=float, default=900, help="per-boot timeout (s)")
    ap.add_argument("--kernel", help="kernel image (default build/kernel.bin)")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",") if x.strip()]

    # tools/boot knows what this QEMU can do: ask it once, before minutes of booting.
    largest = max(sizes)
    p = subprocess.run([sys.executable, BOOT, "--dry-run"] + boot_args(largest, a.timeout,
                                                                        a.kernel),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode == EXIT_USAGE:
        sys.stderr.write(p.stderr)
        sys.stderr.write("test-huge: not run: this QEMU cannot boot %d CPUs\n" % largest)
        return EXIT_USAGE

    os.makedirs(LOGDIR, exist_ok=True)
    passed = failed = 0
    summary = []
    for cpus in sizes:
        name = "huge-smp%d-%dn" % (cpus, (cpus + NODE_CPUS - 1) // NODE_CPUS)
        cmd = [sys.executable, BOOT] + boot_args(cpus, a.timeout, a.kernel)
        print("test-huge: %s: %s" % (name, " ".join(cmd[1:])), flush=True)
        out, err, rc, secs, marks = run_timed(cmd, a.timeout + 120)
        with open(os.path.join(LOGDIR, name + ".log"), "w") as f:
            f.write(out)
        with open(os.path.join(LOGDIR, name + ".stderr.log"), "w") as f:
            f.write(err)
        lines = [ktap.clean_line(l) for l in out.splitlines()]
        k = ktap.parse(lines)
        bad = [c.name for _, c in k.cases() if c.status == "fail"]
        ncases = sum(1 for _ in k.cases())
        passed += ncases - len(bad)
        failed += len(bad)
        problems = []
        if rc != 0:
            problems.append("exit %d" % rc)
        problems += ["KTAP: " + e for e in k.errors]
        online = "# smp cpus_online=%d cpus_present=%d apic=x2apic" % (cpus, cpus)
        if not any(l.startswith(online) for l in lines):
            problems.append("no line '%s'" % online)
        if "# scenario_check ok" not in lines:
            problems.append("no '# scenario_check ok'")
        if problems:
            failed += 1
        else:
            passed += 1
        levels = first(lines, "# tmigr levels=") or "(no '# tmigr levels=' line)"
        res = ("%s: %s, %d cases, %d failed, %.1f s (%s); %s; %s" %
               (name, "ok" if not problems else "FAIL (" + "; ".join(problems) + ")",
                ncases, len(bad), secs, phases(marks, secs), levels,
                first(lines, "# smp ") or "(no '# smp' line)"))
        for c in bad:
            res += "\n    not ok: %s" % c
        if problems:
            tail = "\n".join(out.splitlines()[-15:] + err.splitlines()[-5:])
            res += "\n    --- last lines (build/test-logs/%s.log) ---\n%s" % (name, tail)
        print(res, flush=True)
        summary.append(res.splitlines()[0])
    print("\ntest-huge summary (TCG, %s):" % qemu_line())
    for s in summary:
        print("  " + s)
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 else 1


def run_timed(cmd, timeout):
    """Run tools/boot, noting when the kernel's first line and the `# smp` line
    (every AP started) arrived.  Returns (stdout, stderr, status, seconds, marks)."""
    marks = {}
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    errbuf = []
    import threading
    te = threading.Thread(target=lambda: errbuf.append(p.stderr.read()), daemon=True)
    te.start()
    chunks = []
    try:
        for raw in iter(p.stdout.readline, b""):
            chunks.append(raw)
            line = raw.decode("utf-8", "replace")
            now = time.monotonic() - t0
            if "kernel" not in marks and line.startswith("# tinykernel"):
                marks["kernel"] = now
            if "smp" not in marks and line.startswith("# smp cpus_online="):
                marks["smp"] = now
            if time.monotonic() - t0 > timeout:
                p.kill()
                break
        rc = p.wait(timeout=max(1, timeout - (time.monotonic() - t0)))
    except subprocess.TimeoutExpired:
        p.kill()
        rc = 124
    te.join(10)
    secs = time.monotonic() - t0
    return (b"".join(chunks).decode("utf-8", "replace"),
            b"".join(errbuf).decode("utf-8", "replace"), rc, secs, marks)


def phases(marks, secs):
    """firmware: QEMU start to the kernel's first line; APs: to `# smp`; rest: tests."""
    if "kernel" not in marks:
        return "no kernel output"
    s = "firmware %.1f s" % marks["kernel"]
    if "smp" in marks:
        s += ", to all APs online %.1f s, tests %.1f s" % (marks["smp"] - marks["kernel"],
                                                          secs - marks["smp"])
    return s


def qemu_line():
    q = os.environ.get("QEMU", "qemu-system-x86_64")
    try:
        v = subprocess.run([q, "--version"], stdout=subprocess.PIPE, text=True,
                           stderr=subprocess.DEVNULL, timeout=10).stdout.splitlines()
        return v[0] if v else q
    except (OSError, subprocess.TimeoutExpired):
        return q


if __name__ == "__main__":
    sys.exit(main())
