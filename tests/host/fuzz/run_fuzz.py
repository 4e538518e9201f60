#!/usr/bin/env python3
"""Run the libFuzzer harnesses (tests/host/fuzz.mk, docs/fuzzing.md).

Each target starts from its committed corpus, tests/host/fuzz/corpus/TARGET/
(read only), and writes what it finds to a work corpus: a fresh temporary one
with --smoke (what `make test` runs), else build/fuzz/work/TARGET/, kept between
runs of `make fuzz`.  Crashes, timeouts and leaks are saved under
build/fuzz/artifacts/TARGET/.

One line per target in Check's format, which tests/boot/run_tests.py counts:
    run_fuzz.py:0:P:fuzz:TARGET:0: N execs in S s (E/s), corpus U units/B bytes, ...
or :F: with the artifact and the sanitizer's summary.  Exit 0 iff none failed.

--merge adds to the committed corpus the work-corpus inputs that reach new
coverage (libFuzzer -merge=1), for `make fuzz-merge`.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CORPUS = os.path.join(HERE, "corpus")
TARGETS = ["acpi", "bootinfo", "cmdline", "replay"]
# libFuzzer's default max_len is the largest seed or 4096; a SLIT of more
# than ACPI_SLIT_MAX (64) localities needs 44 + 65 * 65 bytes and more.
EXTRA = {"acpi": ["-max_len=16384"]}


def corpus_stats(dirs):
    n = size = 0
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            p = os.path.join(d, f)
            if os.path.isfile(p):
                n += 1
                size += os.path.getsize(p)
    return n, size


def final_stats(out):
    st = {}
    for m in re.finditer(r"^stat::(\w+):\s+(\d+)", out, re.M):
        st[m.group(1)] = int(m.group(2))
    m = None
    for m in re.finditer(r"^#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)", out, re.M):
        pass
    if m:
        st["cov"], st["ft"] = int(m.group(2)), int(m.group(3))
    return st


def run_one(target, bindir, seconds, smoke, workroot, runs=0, seed=0):
    binary = os.path.join(bindir, "fuzz_" + target)
    seeds = os.path.join(CORPUS, target)
    work = os.path.join(workroot, target)
    arts = os.path.join(ROOT, "build", "fuzz", "artifacts", target)
    os.makedirs(work, exist_ok=True)
    os.makedirs(arts, exist_ok=True)
    cmd = [binary, "-max_total_time=%d" % seconds, "-timeout=10", "-rss_limit_mb=2048",
           "-print_final_stats=1",
           "-artifact_prefix=" + arts + "/"]
    # A fixed seed and run count: close to the same inputs every run (not bit
    # for bit: comparison tracing sees addresses); max_total_time only cuts
    # a slow host short.
    if runs:
        cmd += ["-runs=%d" % runs]
    if seed:
        cmd += ["-seed=%d" % seed]
    dict_file = os.path.join(HERE, target + ".dict")
    if os.path.exists(dict_file):
        cmd.append("-dict=" + dict_file)
    cmd += EXTRA.get(target, []) + [work, seeds]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=seconds + 300)
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode("utf-8", "replace") + "\n[run_fuzz: hung]\n", -9
    except OSError as e:
        out, rc = "cannot run %s: %s\n" % (binary, e), 127
    secs = time.monotonic() - t0
    st = final_stats(out)
    units, size = corpus_stats([work, seeds])
    execs = st.get("number_of_executed_units", 0)
    eps = st.get("average_exec_per_sec", 0)
    log = os.path.join(ROOT, "build", "fuzz", "fuzz_%s.log" % target)
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n" + out)
    if rc == 0:
        msg = ("%d execs in %.0f s (%d/s), corpus %d units/%d bytes, cov %s ft %s, "
               "%d new" % (execs, secs, eps, units, size, st.get("cov", "?"),
                           st.get("ft", "?"), st.get("new_units_added", 0)))
        return target, True, msg, out
    art = re.findall(r"Test unit written to (\S+)", out)
    summ = re.findall(r"^(SUMMARY: .*|.*invariant broken: .*|.*runtime error: .*)$", out, re.M)
    msg = "exit %d after %.0f s: %s; input %s; log %s" % (
        rc, secs, summ[0] if summ else "(no sanitizer summary)",
        art[0] if art else "(none saved)", os.path.relpath(log, ROOT))
    return target, False, msg.replace("\n", " "), out


def merge(target, bindir):
    """Add to the committed corpus the work-corpus inputs that reach coverage
    it does not (libFuzzer -merge=1 keeps every input of its first directory)."""
    binary = os.path.join(bindir, "fuzz_" + target)
    seeds = os.path.join(CORPUS, target)
    work = os.path.join(ROOT, "build", "fuzz", "work", target)
    before = corpus_stats([seeds])
    subprocess.run([binary, "-merge=1"] + EXTRA.get(target, []) + [seeds, work],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = corpus_stats([seeds])
    print("merge %s: %d units/%d bytes -> %d units/%d bytes" % ((target,) + before + after))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="*", default=TARGETS, metavar="TARGET",
                    help="fuzzers to run (default: %s)" % " ".join(TARGETS))
    ap.add_argument("--bindir", default=os.path.join(ROOT, "build", "fuzz"))
    ap.add_argument("--seconds", type=int, default=300, help="per fuzzer (default 300)")
    ap.add_argument("--jobs", type=int, default=1, help="fuzzers run at once")
    ap.add_argument("--smoke", action="store_true",
                    help="fresh temporary work corpus (make test)")
    ap.add_argument("--runs", type=int, default=0,
                    help="stop after this many inputs (0: --seconds alone)")
    ap.add_argument("--seed", type=int, default=0,
                    help="libFuzzer's -seed (0: a random one)")
    ap.add_argument("--merge", action="store_true",
                    help="add new-coverage work inputs to the committed corpus")
    a = ap.parse_args()
    for t in a.targets:
        if t not in TARGETS:
            ap.error("unknown target %r (have: %s)" % (t, ", ".join(TARGETS)))
    if a.merge:
        for t in a.targets:
            merge(t, a.bindir)
        return 0
    tmp = tempfile.mkdtemp(prefix="fuzz-smoke-") if a.smoke else None
    workroot = tmp or os.path.join(ROOT, "build", "fuzz", "work")
    failed = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = [ex.submit(run_one, t, a.bindir, a.seconds, a.smoke, workroot,
                              a.runs, a.seed)
                    for t in a.targets]
            for f in futs:
                target, ok, msg, out = f.result()
                print("run_fuzz.py:0:%s:fuzz:%s:0: %s" % ("P" if ok else "F", target, msg),
                      flush=True)
                if not ok:
                    failed += 1
                    sys.stdout.write("".join(out.splitlines(True)[-40:]))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
