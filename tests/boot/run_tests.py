#!/usr/bin/env python3
"""Test runner for `make test`: host unit tests (Check), the Python unit tests (the
KTAP parser, the trace tools, the docs' citations), and a matrix of QEMU boots through
tools/boot.  Last line: "N passed, N failed[, N skipped]".
Exit 0 iff nothing failed."""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ktap  # noqa: E402
import check_trace  # noqa: E402

BOOT = os.path.join(ROOT, "tools", "boot")
LOGDIR = os.path.join(ROOT, "build", "test-logs")
OK_LINES = [r"^KTAP version 1$"]
# Every trace event in one run (docs/tracing.md): the boot builds the tree,
# one_busy pulls timers with IPIs around it, the timer and tmigr suites
# restart ticks and the trace suite cancels a timer.
TRACE_ALL = ("selftest=timer,tmigr,trace scenario=one_busy,duration_ms=200,hotplug=3@50,3@120 "
             "trace=all trace_buf=1M")

# name, tools/boot arguments, expected exit status, regexes each of which some line must match
MATRIX = [
    # --expect-topology: the guest's topology suite checks ACPI's CPU and
    # node counts against what QEMU was asked for.
    ("smp1", ["--smp", "1", "--expect-topology"], 0, OK_LINES),
    ("smp2", ["--smp", "2", "--expect-topology"], 0, OK_LINES),
    ("smp3-odd", ["--smp", "3", "--numa", "0,2:1", "--expect-topology"], 0, OK_LINES),
    ("smp4-2n", ["--smp", "4", "--numa", "0-1:2-3", "--expect-topology"], 0, OK_LINES),
    ("smp8-2n-interleaved", ["--smp", "8", "--numa", "0,2,4,6:1,3,5,7",
                             "--expect-topology"], 0,
     OK_LINES + [r"# cpu cpu=1 apic=1 node=1 ", r"# cpu cpu=2 apic=2 node=0 "]),
    ("smp16-4n-smt2", ["--smp", "16,sockets=4,cores=2,threads=2", "--numa",
                       "0-3:4-7:8-11:12-15", "--expect-topology"], 0,
     OK_LINES + [r"# topology cpus=16 nodes=4 packages=4 threads_per_core=2",
                 r"# cpu cpu=5 apic=5 node=1 package=1 core=0 thread=1"]),
    # Three cores per package: APIC ids have holes (0-5, 8-13).
    ("smp12-3cores", ["--smp", "12,sockets=2,cores=3,threads=2", "--numa", "0-5:6-11",
                      "--expect-topology"], 0,
     OK_LINES + [r"# topology cpus=12 nodes=2 packages=2 threads_per_core=2",
                 r"# cpu cpu=6 apic=8 node=1 package=1 core=0 thread=0"]),
    ("smp64-8n", ["--smp", "64", "--numa",
                  ":".join("%d-%d" % (8 * n, 8 * n + 7) for n in range(8)),
                  "--expect-topology", "--mem", "512M"], 0,
     OK_LINES + [r"# acpi cpus=64 nodes=8 srat=yes", r"# smp cpus_online=64 cpus_present=64"]),
    # TCG's maximum on QEMU 7.2, on 5 nodes of 51 CPUs (not a power of two).
    ("smp255-5n", ["--smp", "255", "--numa",
                   ":".join("%d-%d" % (51 * n, 51 * n + 50) for n in range(5)),
                   "--expect-topology", "--mem", "1G", "--timeout", "180"], 0,
     OK_LINES + [r"# smp cpus_online=255 cpus_present=255"]),
    ("iso-smp8-2n", ["--iso", "--smp", "8", "--numa", "0-3:4-7", "--expect-topology"], 0,
     OK_LINES),
    # The tick and NOHZ at each HZ; nohz=off keeps the tick in idle.
    ("hz1000-smp4-2n", ["--smp", "4", "--numa", "0,3:1-2", "--cmdline",
                        "hz=1000 selftest=timer,tmigr,ipi"], 0,
     OK_LINES + [r"# timer model=pull hz=1000 nohz=on"]),
    ("hz100-smp3", ["--smp", "3", "--cmdline", "hz=100 selftest=timer,tmigr"], 0,
     OK_LINES + [r"# timer model=pull hz=100 nohz=on"]),
    ("nohz-off-smp4", ["--smp", "4", "--cmdline", "nohz=off selftest=timer,tmigr,ipi"], 0,
     OK_LINES + [r"ok \d+ nohz_off_keeps_the_tick_in_idle$"]),
    # The three placement models on the guest suites.
    ("push-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                      "timer_model=push selftest=timer,tmigr"], 0, OK_LINES),
    ("local-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                       "timer_model=local selftest=timer,tmigr"], 0, OK_LINES),
    ("tmigr-tree-smp24-3n", ["--smp", "24", "--numa", "0-9:10-19:20-23", "--cmdline",
                             "selftest=tmigr_tree,tmigr"], 0,
     OK_LINES + [r"# tmigr levels=3 children=8 crossnode=2",
                 r"# tmigr_group id=\d+ level=2 node=-1 parent=-1 "]),
    # Scenarios check themselves (# scenario_check); pull leaves idle CPUs alone.
    ("scenario-one_busy-pull", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                                "selftest=none scenario=one_busy,duration_ms=500"], 0,
     [r"# scenario_result name=one_busy model=pull idle_cpus=7 idle_wakes=0 ",
      r"# scenario_check ok"]),
    # Isolated CPUs (docs/scenarios.md): the boot CPU and three of node 1's
    # isolated, CPU 4 the one busy housekeeping CPU.  No isolated CPU expires
    # another's timers, CPU 4 pulls the idle ones', and nobody idle wakes.
    ("scenario-one_busy-isolcpus", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                                    "selftest=none isolcpus=0,5,6,7 "
                                    "scenario=one_busy,busy=0,4,duration_ms=500"], 0,
     [r"# stat scenario=one_busy cpu=0 node=0 busy=1 .* expired_remote=0 .*isolated=1$",
      r"# stat scenario=one_busy cpu=4 node=1 busy=1 .* expired_remote=[1-9]\d* .*isolated=0$",
      r"# stat scenario=one_busy cpu=6 node=1 busy=0 wakes=0 .* expired_remote=0 "
      r"pulled_for=[1-9]\d* .*isolated=1$",
      r"# scenario_result name=one_busy model=pull idle_cpus=6 idle_wakes=0 ",
      r"# scenario_check ok"]),
    # A busy CPU other than the boot CPU, which sleeps through the window.
    ("scenario-one_busy-busy1", ["--smp", "4", "--cmdline",
                                 "selftest=none scenario=one_busy,busy=1,duration_ms=500"], 0,
     [r"# scenario_result name=one_busy model=pull idle_cpus=3 idle_wakes=0 ",
      r"# scenario_check ok"]),
    # The boot CPU wakes 200 ms late for the window's end (close_late_ms=,
    # as a vCPU the host did not run): the busy CPU must still be busy, not
    # idle, when the closing snapshots are taken, or the gap's all-idle
    # wakes count as the window's (seen once under QEMU 10, docs/scenarios.md).
    ("scenario-one_busy-late-close", ["--smp", "4", "--cmdline",
                                      "selftest=none scenario=one_busy,busy=1,duration_ms=300,close_late_ms=200"], 0,
     [r"# stat scenario=one_busy cpu=1 node=0 busy=1 .* idle_us=0 ",
      r"# scenario_result name=one_busy model=pull idle_cpus=3 idle_wakes=0 ",
      r"# scenario_check ok"]),
    # mixed: a seeded random workload; the same seed gives every model the
    # same timer operations, and no model may beat the lower bound.
    ("scenario-mixed-pull", ["--smp", "5", "--numa", "0,2,4:1,3", "--cmdline",
                             "selftest=none scenario=mixed,duration_ms=600,seed=7"], 0,
     [r"# scenario_result name=mixed model=pull idle_cpus=5 .* early=0 .*seed=7 ",
      r"# scenario_check ok"]),
    ("scenario-mixed-local", ["--smp", "5", "--numa", "0,2,4:1,3", "--cmdline",
                              "selftest=none timer_model=local scenario=mixed,duration_ms=600,seed=7"], 0,
     [r"# scenario_result name=mixed model=local idle_cpus=5 .* early=0 .*seed=7 ",
      r"# scenario_check ok"]),
    ("scenario-mixed-busy-refused", ["--smp", "2", "--cmdline", "scenario=mixed,busy=1"], 1,
     [r"scenario: mixed takes no busy= or hotplug="]),
    ("scenario-all_idle-pull", ["--smp", "6", "--numa", "0-2:3-5", "--cmdline",
                                "selftest=none scenario=all_idle,duration_ms=300"], 0,
     [r"# scenario_result name=all_idle model=pull", r"# scenario_check ok"]),
    ("scenario-busy_per_node-local", ["--smp", "6", "--numa", "0,2,4:1,3,5", "--cmdline",
                                      "timer_model=local selftest=none "
                                      "scenario=busy_per_node,period_ms=8,duration_ms=300"], 0,
     [r"# stat scenario=busy_per_node cpu=1 node=1 busy=1 ", r"# scenario_check ok"]),
    # selftest=torture, briefly (make torture runs it for minutes): exact
    # accounting, nothing early or twice, with CPUs going offline and online.
    ("torture-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                         "selftest=torture torture_ms=3000"], 0,
     OK_LINES + [r"# torture total seed=1 duration_ms=3000 cpus=8 .* early=0 twice=0 "
                 r"lost=0 .* hotplug_errors=0$", r"# torture cpu=7 node=1 "]),
    ("torture-smp5-2n-interleaved", ["--smp", "5", "--numa", "0,2,4:1,3", "--cmdline",
                                     "selftest=torture torture_ms=3000 torture_seed=0x5eed"],
     0, OK_LINES + [r"# torture total seed=24301 duration_ms=3000 cpus=5 .* early=0 "
                    r"twice=0 lost=0 .* hotplug_errors=0$", r"# torture cpu=3 node=1 "]),
    ("torture-ms-bad", ["--cmdline", "selftest=torture torture_ms=0"], 1,
     [r"cmdline: bad value '0' for torture_ms \(expected 1\.\.3600000\)"]),
    ("isolcpus-bad-cpu", ["--smp", "2", "--cmdline", "isolcpus=0,5"], 1,
     [r"isolcpus: CPU 5 does not exist \(CPUs 0-1\)"]),
    ("scenario-unknown", ["--cmdline", "scenario=ping"], 1,
     [r"scenario: unknown scenario 'ping'"]),
    ("scenario-busy-offline", ["--smp", "2", "--cmdline", "scenario=one_busy,busy=5"], 1,
     [r"scenario: busy CPU 5 is not online"]),
    # CPU hotplug (kernel/hotplug.h): the suite on an odd interleaved shape,
    # a scenario whose idle CPUs go and come back, and the refusals.
    ("hotplug-smp5-interleaved", ["--smp", "5", "--numa", "0,2,4:1,3", "--cmdline",
                                  "selftest=hotplug,timer"], 0, OK_LINES),
    ("scenario-hotplug-pull", ["--smp", "6", "--numa", "0-2:3-5", "--cmdline",
                               "selftest=none scenario=one_busy,duration_ms=500,"
                               "hotplug=2@50,5@80,2@200,4@250"], 0,
     [r"# hotplug cpu=2 offline timers_moved=1 to=0", r"# hotplug cpu=4 online",
      r"# scenario_result name=one_busy model=pull idle_cpus=5 .*idle_timer_wakes=0 ",
      r"# scenario_check ok", r"# stat cpu=5 .* offlines=1 offline_us=\d+ parked_wakes=1 "]),
    ("scenario-hotplug-busy-cpu", ["--smp", "4", "--cmdline",
                                   "scenario=one_busy,busy=0,2,hotplug=2@10"], 1,
     [r"scenario: hotplug CPU 2 is busy in this scenario"]),
    ("scenario-hotplug-boot-cpu", ["--smp", "2", "--cmdline", "scenario=one_busy,hotplug=0@10"], 1,
     [r"scenario: hotplug CPU 0 is not one that can go offline"]),
    ("scenario-hotplug-bad-entry", ["--smp", "2", "--cmdline", "scenario=one_busy,hotplug=1"], 1,
     [r"scenario: bad hotplug= entry '1' \(expected CPU@MS"]),
    # TCG on QEMU 7.2 has no TSC-deadline timer: asking for it must fail loudly.
    ("clockevent-deadline-tcg", ["--accel", "tcg", "--cmdline", "clockevent=deadline"], 1,
     [r"clockevent: deadline asked for, but CPUID"]),
    # The topology check must be able to fail.
    ("topology-mismatch", ["--smp", "4", "--cmdline", "expect_cpus=5 expect_nodes=2"], 1,
     [r"not ok \d+ cpu_count_matches_command_line",
      r"not ok \d+ node_count_matches_command_line"]),
    # RAM above 4 GiB: the direct map and page allocator past the MMIO hole.
    ("mem5g-smp2", ["--smp", "2", "--mem", "5G"], 0, OK_LINES + [r"free_kib=5\d{6}"]),
    # A real overflow: #PF cannot push onto the guard page, #DF on IST1 must dump.
    ("stack-overflow-demo", ["--cmdline", "selftest=stack_overflow_demo"], 2,
     [r"vector 8 \(#DF double fault\)", r"PANIC: unhandled exception 8"]),
    ("iso-panic-demo", ["--iso", "--cmdline", "selftest=panic_demo"], 2,
     [r"CR2: .*not present, write", r"Call trace", r"PANIC"]),
    # tools/boot's own contract: a guest that never exits is cut at
    # --timeout with 124 (-S freezes the CPUs); bad topology arguments are
    # refused before QEMU starts with 64.
    ("boot-timeout", ["--timeout", "2", "--", "-S"], 124, []),
    # selftest=hang_demo (docs/hang.md): CPU 1 spins with interrupts off, the
    # others wait for it.  The in-guest watchdog dumps on the waiters' ticks;
    # at --timeout tools/boot names each vCPU's function (STDERR_CHECKS).
    ("hang-demo", ["--smp", "4", "--timeout", "20", "--cmdline",
                   "selftest=hang_demo watchdog=3"], 124,
     [r"^# hang_demo spin_cpu=1 waiters=3$", r"^# watchdog begin reason=stall ",
      r"^# watchdog stall kind=stage stage=hang_demo/wait_for_spinner expected_ms=1 ",
      r"^# watchdog stall cpu=1 kind=no_timer_irq ",
      r"^# watchdog stall cpu=1 kind=overdue base=local ",
      r"^# watchdog stall cpu=2 kind=wait wait=hang_demo_spinner ",
      r"^# watchdog cpu=1 node=0 state=busy regs=nmi rip=0x[0-9a-f]+ .* if=0$",
      r"^# watchdog cpu=3 wait=hang_demo_spinner arg=0x[0-9a-f]+ arg_cpu=1 ",
      r"^# watchdog cpu=0 tmigr online=1 ", r"^# watchdog group id=0 level=0 ",
      r"^# watchdog end$"]),
    ("boot-cpu-in-two-nodes", ["--smp", "4", "--numa", "0-2:2-3"], 64, []),
    ("boot-cpu-outside-smp", ["--smp", "4", "--numa", "0-1:2-4"], 64, []),
    ("unknown-suite", ["--cmdline", "selftest=boot,nosuch"], 1,
     [r"selftest: unknown suite 'nosuch'"]),
    ("bad-option", ["--cmdline", "timer_model=bogus"], 1,
     [r"cmdline: bad value 'bogus' for timer_model"]),
    ("unknown-option", ["--cmdline", "frobnicate=1"], 1,
     [r"cmdline: unknown option 'frobnicate"]),
    ("panic-demo", ["--cmdline", "selftest=panic_demo"], 2,
     [r"CR2: .*not present, write", r"Call trace", r"PANIC"]),
    # Tracing (docs/tracing.md): every event in one run (TRACE_ALL,
    # POSTCHECKS), a ring that wraps, and the option errors.
    ("trace-all-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline", TRACE_ALL], 0,
     OK_LINES + [r"# trace begin events=all cpus=8 ", r"# trace end records=\d+ lost=0$"]),
    # A host that stops reading the serial output (drivers/uart.c) as the
    # trace dump begins (pipe shrunk to 4 KiB): for 2 s the guest waits and
    # loses nothing; for 8 s (past its 5 s bound) it drops bytes and says so
    # with exit status 5.
    ("serial-slow-reader-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7",
                                    "--reader-pause", "2@# trace begin", "--cmdline", TRACE_ALL],
     0, OK_LINES + [r"# trace end records=\d+ lost=0$", r"# console lost_bytes=0 "]),
    ("serial-stuck-reader-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7",
                                     "--reader-pause", "8@# trace begin", "--cmdline", TRACE_ALL],
     5, []),
    ("trace-wrap-smp2", ["--smp", "2", "--cmdline",
                         "selftest=none scenario=one_busy,duration_ms=100 trace=all "
                         "trace_buf=1K"], 0,
     [r"# trace begin events=all cpus=2 buf=1024 rec_bytes=96 records_per_cpu=10 ",
      r"# trace end records=\d+ lost=[1-9]"]),
    ("trace-bad-event", ["--cmdline", "trace=timer_start,bogus"], 1,
     [r"cmdline: bad value 'timer_start,bogus' for trace \(expected all\|none\|EVENT"]),
    ("trace-bad-buf", ["--cmdline", "trace=all trace_buf=12Q"], 1,
     [r"cmdline: bad value '12Q' for trace_buf \(expected SIZE\[K\|M\]\)"]),
    ("trace-buf-too-big", ["--smp", "4", "--mem", "128M", "--cmdline",
                           "selftest=none trace=all trace_buf=64M"], 1,
     [r"trace: no memory for 4 per-CPU buffers of 67108864 bytes"]),
    # x2APIC (README.md, "Beyond 255 CPUs").  QEMU emulates it under TCG from 9.0 on, so on Debian 12's
    # QEMU 7.2 (CI) the two x2apic- entries are skipped and the refusal is checked
    # instead; with QEMU >= 9 (tools/deps --qemu=both, QEMU=build/qemu10/...) the other
    # way round.
    ("x2apic-smp8-2n", ["--x2apic", "--smp", "8", "--numa", "0-3:4-7", "--expect-topology"], 0,
     OK_LINES + [r"# smp cpus_online=8 cpus_present=8 apic=x2apic",
                 r"ok \d+ every_cpu_reads_its_madt_apic_id$"]),
    # Past the xAPIC limit: ids 255.. come as MADT type 9 and SRAT type 2 entries.
    ("x2apic-smp300-5n", ["--smp", "300", "--numa",
                          ":".join("%d-%d" % (60 * n, 60 * n + 59) for n in range(5)),
                          "--expect-topology", "--mem", "1G", "--timeout", "300"], 0,
     OK_LINES + [r"# smp cpus_online=300 cpus_present=300 apic=x2apic",
                 r"# cpu cpu=299 apic=299 node=4 "]),
    ("boot-smp256-needs-x2apic", ["--smp", "256"], 64, []),
    # qboot (issue 21) starts no AP before the kernel, so the kernel's INIT-SIPI-SIPI is
    # each AP's first: the same shapes must come up under it as under SeaBIOS.
    ("qboot-smp8-2n", ["--firmware", "qboot", "--smp", "8", "--numa", "0-3:4-7",
                       "--expect-topology"], 0,
     OK_LINES + [r"# smp cpus_online=8 cpus_present=8 .* left_out=0 bringup=parallel"]),
    ("qboot-smp16-4n-smt2", ["--firmware", "qboot", "--smp", "16,sockets=4,cores=2,threads=2",
                             "--numa", "0-3:4-7:8-11:12-15", "--expect-topology"], 0,
     OK_LINES + [r"# smp cpus_online=16 cpus_present=16 .* left_out=0"]),
    ("qboot-iso-refused", ["--firmware", "qboot", "--iso"], 64, []),
    # cpuhp.parallel=0: one AP at a time, as before parallel bring-up.
    ("serial-bringup-smp8-2n", ["--smp", "8", "--numa", "0,2,4,6:1,3,5,7", "--cmdline",
                                "cpuhp.parallel=0 selftest=smp,ipi,topology",
                                "--expect-topology"], 0,
     OK_LINES + [r"# smp cpus_online=8 cpus_present=8 .* bringup=serial init_udelay_us=0$"]),
    # An AP the boot CPU gave up on is put back into INIT and left out; the rest run
    # on their own boot data (the ipi suite reaches every online CPU).
    ("ap-late-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                         "ap_late_test=3 selftest=ipi"], 0,
     OK_LINES + [r"^smp: CPU 3 \(apic 3\) did not report in, put back into INIT and left out$",
                 r"^# smp cpus_online=7 cpus_present=8 apic=xapic left_out=1 "]),
    # A host that stretches every TSC sync round (each AP holds its answers 1 ms): no
    # round is good, so each AP's sync ends at its 20 ms budget after some twenty
    # rounds, not all 256 (a loaded 64-CPU boot once timed out so), and the clocks
    # still agree to the wider bound (the clock suite).
    ("tsc-sync-stalled-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                                  "selftest=clock tsc_sync_stall_test=1000"], 0,
     OK_LINES + [r"^# tsc_sync max_rounds=256 worst_rtt_ns=\d+ cpu=\d+ rounds_max=\d{1,2} "
                 r"budget_us=20000 cut_short=7$"]),
    ("tsc-sync-stall-bad", ["--cmdline", "tsc_sync_stall_test=100001"], 1,
     [r"cmdline: bad value '100001' for tsc_sync_stall_test"]),
    # APs that report in late, the lowest-numbered last (CPU i waits (8 - i) x 300 ms
    # before reporting in: CPU 1 2.1 s after its SIPI), as a host running a thousand
    # vCPUs on two cores does: the boot CPU waits for CPU 1 first, and gives up on an
    # AP only after 10 s in which no AP reported in, so none is left out.
    ("ap-report-late-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                                "selftest=smp ap_report_delay_test=300"], 0,
     OK_LINES + [r"^# smp cpus_online=8 cpus_present=8 apic=xapic left_out=0 bringup=parallel"]),
    ("init-udelay-bad", ["--cmdline", "cpu_init_udelay=100001"], 1,
     [r"cmdline: bad value '100001' for cpu_init_udelay"]),
    # Every CPU faults at once: one whole dump, the others stopped by NMI (POSTCHECKS).
    ("fault-test-allcpus-smp8-2n", ["--smp", "8", "--numa", "0-3:4-7", "--cmdline",
                                    "selftest=none fault_test=allcpus"], 2,
     [r"^# fault_test allcpus cpus=8$", r"^# panic cpu=\d+ stopped=7$"]),
]

# Which QEMU an entry needs: "x2apic" one that can give a TCG guest x2APIC (>= 9.0; any
# under KVM), "no-x2apic" one that cannot.  Entries not named here run everywhere.
NEEDS = {"x2apic-smp8-2n": "x2apic", "x2apic-smp300-5n": "x2apic",
         "boot-smp256-needs-x2apic": "no-x2apic"}
X2APIC_QEMU = (9, 0)


def qemu_version():
    q = os.environ.get("QEMU", "qemu-system-x86_64")
    try:
        out = subprocess.run([q, "--version"], stdout=subprocess.PIPE, text=True,
                             stderr=subprocess.DEVNULL, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None, None
    m = re.search(r"version\s+((\d+)\.(\d+)\S*)", out)
    return (m.group(1), (int(m.group(2)), int(m.group(3)))) if m else (None, None)

# The version the matrix found (qemu_version()); every boot must report the same.
MATRIX_QEMU = [None]

# More checks of a boot's output (its cleaned lines -> list of problems).
def check_reader_stalled(lines):
    """The pause really held the guest up: its longest wait for the UART."""
    m = [re.search(r"^# console lost_bytes=0 stall_max_ms=(\d+)$", l) for l in lines]
    ms = [int(x.group(1)) for x in m if x]
    if not ms or ms[0] < 500:
        return ["the reader's 2 s pause did not stall the guest's UART (stall_max_ms=%s)"
                % (ms[0] if ms else None)]
    return check_trace.check_all(lines)


def check_one_dump(lines):
    """Exactly one exception dump and one PANIC line, nothing interleaved."""
    problems = []
    for head in ("EXCEPTION:", "PANIC:"):
        n = sum(1 for l in lines if l.startswith(head))
        if n != 1:
            problems.append("%d lines start with %r, expected 1" % (n, head))
    return problems


POSTCHECKS = {
    "fault-test-allcpus-smp8-2n": check_one_dump,
    "trace-all-smp8-2n": check_trace.check_all,
    "serial-slow-reader-smp8-2n": check_reader_stalled,
    "trace-wrap-smp2": check_trace.check_wrap,
}


def hang_lines(err_lines):
    """tools/boot's `boot: hang` lines: {cpu: line}, and how many there were."""
    got = [l for l in err_lines if l.startswith("boot: hang cpu=")]
    return {int(re.match(r"boot: hang cpu=(\d+) ", l).group(1)): l for l in got}, len(got)


def check_hang_demo(err_lines):
    """One line per vCPU; CPU 1 in the spinner with interrupts off, the rest waiting."""
    by_cpu, n = hang_lines(err_lines)
    problems = [] if n == 4 and sorted(by_cpu) == [0, 1, 2, 3] else \
        ["expected one boot: hang line for each of CPUs 0-3, got %d for %s" % (n, sorted(by_cpu))]
    for cpu, line in sorted(by_cpu.items()):
        want = r" in hang_demo_spin \(tests/guest/hang_demo_tests\.c:\d+\) if=0" if cpu == 1 \
            else r" in hang_demo_wait \(tests/guest/hang_demo_tests\.c:\d+\) if=1"
        if not re.search(want, line):
            problems.append("CPU %d: /%s/ not in %r" % (cpu, want, line))
    return problems


def check_frozen(err_lines):
    """-S: 8 vCPUs that never ran, each said to be outside the kernel."""
    by_cpu, n = hang_lines(err_lines)
    outside = [l for l in by_cpu.values() if "(no per-CPU area: not in the kernel)" in l]
    if n != 8 or sorted(by_cpu) != list(range(8)) or len(outside) != 8:
        return ["expected 8 boot: hang lines of vCPUs outside the kernel, got %d (%d outside)"
                % (n, len(outside))]
    return []


# Checks of a boot's stderr (its lines -> list of problems): the hang dump.
def check_dropped(err_lines):
    if not any(l.startswith("boot: the guest dropped bytes of its serial output") for l in err_lines):
        return ["tools/boot did not say that the guest dropped serial output"]
    return []


STDERR_CHECKS = {"hang-demo": check_hang_demo, "boot-timeout": check_frozen,
                 "serial-stuck-reader-smp8-2n": check_dropped}

# Python unit tests run like the KTAP parser's: module -> name prefix.
UNITTEST_MODULES = [("test_ktap", "ktap-unittest"), ("test_trace_tools", "trace-unittest"),
                    ("test_hangdump", "hangdump-unittest"), ("test_docs", "docs-unittest"),
                    ("test_weigher", "weigher-unittest")]

CHECK_RE = re.compile(r"^(.*?):(-?\d+):([PFE]):([^:]*):([^:]+):(\d+):\s?(.*)$")


class Tally:
    def __init__(self):
        self.passed, self.failed, self.skipped = [], [], []
        self.details = {}       # failed name -> text to show

    def add(self, name, status, detail=None):
        {"pass": self.passed, "fail": self.failed, "skip": self.skipped}[status].append(name)
        if status == "fail" and detail:
            self.details[name] = detail


def run_host(binary, tally):
    name = os.path.basename(binary)
    env = dict(os.environ, CK_VERBOSITY="verbose")
    t0 = time.monotonic()
    try:
        p = subprocess.run([binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=900)
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode("utf-8", "replace") + "\n[timeout]\n", -9
    except OSError as e:
        out, rc = "cannot run %s: %s\n" % (binary, e), 127
    n = {"P": 0, "F": 0, "E": 0}
    said = []   # what the binary printed since its last result line
    for line in out.splitlines():
        m = CHECK_RE.match(line.strip())
        if not m:
            said = (said + [line.rstrip()])[-20:]
            continue
        kind, tcase, test, it, msg = m.group(3), m.group(4), m.group(5), int(m.group(6)), m.group(7)
        tname = "host/%s/%s/%s%s" % (name, tcase, test, "[%d]" % it if it else "")
        n[kind] += 1
        if kind == "P":
            tally.add(tname, "pass")
        else:
            # A failing test's own diagnostics (a LOST or BROKEN line, say)
            # come before its result line: keep them with it.
            tally.add(tname, "fail", "\n".join(said + [line.strip()]))
        said = []
    if rc != 0 and n["F"] + n["E"] == 0:
        tally.add("host/%s" % name, "fail",
                  "exit status %d, no failure lines parsed; last output:\n%s" %
                  (rc, "\n".join(out.splitlines()[-30:])))
    print("host %s: %d passed, %d failed, exit %d, %.1fs" %
          (name, n["P"], n["F"] + n["E"], rc, time.monotonic() - t0), flush=True)


def run_ktap_unittests(tally, module="test_ktap", prefix="ktap-unittest"):
    class R(unittest.TextTestResult):
        pass
    suite = unittest.defaultTestLoader.loadTestsFromName(module)

    def walk(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                yield from walk(t)
            else:
                yield t
    ids = [t.id() for t in walk(suite)]    # before run(): running empties the suite
    import io
    buf = io.StringIO()
    res = unittest.TextTestRunner(stream=buf, verbosity=0, resultclass=R).run(suite)
    bad = {}
    for t, tb in res.failures + res.errors:
        bad[t.id()] = tb
    n = 0
    for tid in ids:
        n += 1
        name = prefix + "/" + tid.split(".")[-1]
        if tid in bad:
            tally.add(name, "fail", bad[tid])
        else:
            tally.add(name, "pass")
    print("%s unit tests: %d run, %d failed" % (module, n, len(bad)), flush=True)


# What the host can carry: TCG runs each vCPU as a host thread, so boots side by side
# share the host's cores.  Most of a matrix boot's vCPUs sit in HLT, so a core carries
# several; VCPUS_PER_CORE of them per host core is the budget (--vcpus overrides it).
# A boot at or above the budget runs alone.
VCPUS_PER_CORE = 16


def boot_vcpus(args):
    """The vCPUs an entry's tools/boot arguments ask for (tools/boot's default: 8)."""
    smp = args[args.index("--smp") + 1] if "--smp" in args else "8"
    first = smp.split(",")[0]
    m = re.search(r"(?:^|,)maxcpus=(\d+)", smp)
    if m:
        return int(m.group(1))
    return int(first) if first.isdigit() else 8


class Weigher:
    """Admits a boot of @w vCPUs when the running ones and it fit @budget and fewer
    than @jobs run; one that fits nothing runs when it is alone."""

    def __init__(self, budget, jobs):
        self.budget, self.jobs = budget, jobs
        self.used, self.running = 0, 0
        self.cond = threading.Condition()

    def acquire(self, w):
        with self.cond:
            while self.running and (self.used + w > self.budget or self.running >= self.jobs):
                self.cond.wait()
            self.used += w
            self.running += 1

    def release(self, w):
        with self.cond:
            self.used -= w
            self.running -= 1
            self.cond.notify_all()


def boot_weighed(weigher, entry, *rest):
    w = boot_vcpus(entry[1])
    weigher.acquire(w)
    try:
        return boot_one(entry, *rest)
    finally:
        weigher.release(w)


# tools/boot processes in flight: an interrupted runner (tools/soak) sends them
# SIGINT, on which each kills its QEMU.
RUNNING = set()


def boot_one(entry, accel, timeout, kernel=None):
    name, args, expect, required = entry
    cmd = [sys.executable, BOOT, "--accel", accel, "--timeout", str(timeout)] + args
    # An entry's own --timeout comes later and wins in tools/boot: wait for that one.
    if "--timeout" in args:
        timeout = float(args[args.index("--timeout") + 1])
    if kernel:
        cmd += ["--kernel", kernel]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    RUNNING.add(p)
    try:
        out, err = p.communicate(timeout=timeout + 120)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        err, rc = err + b"run_tests: tools/boot hung\n", 124
    finally:
        RUNNING.discard(p)
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    return name, args, expect, required, rc, out, err, time.monotonic() - t0


def judge_boot(res, tally):
    name, args, expect, required, rc, out, err, secs = res
    os.makedirs(LOGDIR, exist_ok=True)
    log = os.path.join(LOGDIR, name + ".log")
    with open(log, "w") as f:
        f.write(out)
    with open(os.path.join(LOGDIR, name + ".stderr.log"), "w") as f:
        f.write(err)
    m = re.search(r"^boot: accel=(\w+)", err, re.M)
    accel = m.group(1) if m else "?"
    lines = [ktap.clean_line(l) for l in out.splitlines()]
    problems = []
    if rc != expect:
        problems.append("exit status %d, expected %d" % (rc, expect))
    for rx in required:
        if not any(re.search(rx, l) for l in lines):
            problems.append("no line matches /%s/" % rx)
    if rc == 5 and expect != 5:
        problems.append("the guest lost serial output: the host did not drain the UART")
    if name in POSTCHECKS and rc == expect:
        problems += POSTCHECKS[name](lines)
    if name in STDERR_CHECKS and rc == expect:
        problems += STDERR_CHECKS[name](err.splitlines())
    ncases = 0
    case_failed = []
    if expect == 0:
        k = ktap.parse(lines)
        problems += ["KTAP: " + e for e in k.errors]
        for suite, c in k.cases():
            ncases += 1
            cname = "%s/%s/%s" % (name, suite, c.name)
            tally.add(cname, c.status)
            if c.status == "fail":
                case_failed.append(cname)
    tail = "--- last 30 lines of %s ---\n%s" % (os.path.relpath(log, ROOT),
                                                "\n".join(out.splitlines()[-30:]))
    # A failed case's own lines (its KEXPECT messages and its "not ok") may lie
    # far above the last 30: show them first, so a CI log alone names the cause.
    why = [l for l in out.splitlines()
           if re.match(r"\s*not ok ", l) or re.match(r"\s*# \S+: \S+:\d+: ", l)]
    if why:
        tail = "--- failed cases' lines ---\n%s\n%s" % ("\n".join(why[:40]), tail)
    m = re.search(r"^boot: qemu=\S+ version=(\S+)", err, re.M)
    if m and m.group(1) != MATRIX_QEMU[0]:
        problems.append("ran QEMU %s, not the matrix's %s" % (m.group(1), MATRIX_QEMU[0]))
    stderr_tail = "\n".join(l for l in err.splitlines()
                            if not l.startswith(("boot: accel=", "boot: qemu=")))
    if stderr_tail:
        tail += "\n--- stderr ---\n" + stderr_tail
    if problems:
        tally.add(name + "/boot", "fail", "; ".join(problems) + "\n" + tail)
    else:
        tally.add(name + "/boot", "pass")
        if case_failed:     # show the log once per boot
            tally.details[case_failed[0]] = tail
    print("boot %s: exit %d (expected %d), %d cases, accel=%s, %.1fs%s" %
          (name, rc, expect, ncases, accel, secs,
           "" if not problems else " -- FAIL: " + "; ".join(problems)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--host", action="append", default=[], metavar="BIN",
                    help="a Check host test binary to run (repeatable)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="boot only these matrix entries (repeatable)")
    ap.add_argument("--accel", default="auto", choices=["auto", "kvm", "tcg"])
    ap.add_argument("--timeout", type=float, default=120, help="per-boot timeout (s)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="parallel boots (default 2)")
    ap.add_argument("--vcpus", type=int, default=0, metavar="N",
                    help="most vCPUs booted at once (default %d per host core)" % VCPUS_PER_CORE)
    ap.add_argument("--expect-qemu", metavar="MAJOR",
                    default=os.environ.get("EXPECT_QEMU_MAJOR") or None,
                    help="fail unless the QEMU run has this major version (default: "
                    "$EXPECT_QEMU_MAJOR; unset: any)")
    ap.add_argument("--kernel", help="kernel image for tools/boot (default build/kernel.bin)")
    ap.add_argument("--no-boot", action="store_true", help="skip the boot matrix")
    ap.add_argument("--list", action="store_true", help="list the boot matrix and exit")
    a = ap.parse_args()
    if a.expect_qemu is not None:
        if not re.fullmatch(r"[1-9]\d{0,2}", a.expect_qemu):
            ap.error("--expect-qemu / EXPECT_QEMU_MAJOR: %r is not a QEMU major version "
                     "(e.g. 7 or 10)" % a.expect_qemu)
        a.expect_qemu = int(a.expect_qemu)
    if a.vcpus < 0:
        ap.error("--vcpus must be at least 1 (0: the default)")

    if a.list:
        for name, args, expect, required in MATRIX:
            print("%-22s exit %d  %s" % (name, expect, " ".join(args)))
        return 0
    names = [e[0] for e in MATRIX]
    for n in a.only:
        if n not in names:
            print("run_tests: unknown matrix entry %r (have: %s)" % (n, ", ".join(names)),
                  file=sys.stderr)
            return 2
    tally = Tally()
    for module, prefix in UNITTEST_MODULES:
        run_ktap_unittests(tally, module, prefix)
    for b in a.host:
        run_host(b, tally)

    if not a.no_boot:
        entries = [e for e in MATRIX if not a.only or e[0] in a.only]
        accel = a.accel
        if accel == "auto":     # probe once, before the parallel boots
            try:
                accel = subprocess.run([sys.executable, BOOT, "--print-accel", "--accel", "auto"] +
                                       (["--kernel", a.kernel] if a.kernel else []),
                                       stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                       text=True, timeout=120).stdout.strip() or "tcg"
            except subprocess.TimeoutExpired:
                accel = "tcg"
            if accel not in ("kvm", "tcg"):
                accel = "tcg"
        ver, vt = qemu_version()
        MATRIX_QEMU[0] = ver
        if a.expect_qemu is not None and (vt is None or vt[0] != a.expect_qemu):
            why = ("QEMU %s (%s) is not the QEMU %d this run asked for" %
                   (ver or "unknown", os.environ.get("QEMU", "qemu-system-x86_64"),
                    a.expect_qemu))
            tally.add("boot-matrix/qemu-version", "fail", why)
            print("boot matrix: %s; no boots run" % why, flush=True)
            entries = []
        can_x2apic = accel == "kvm" or (vt is not None and vt >= X2APIC_QEMU)
        print("boot matrix: QEMU %s, accel=%s, x2APIC %s" %
              (ver or "unknown", accel, "yes" if can_x2apic else "no"), flush=True)
        runnable = []
        for e in entries:
            need = NEEDS.get(e[0])
            if need is None or (need == "x2apic") == can_x2apic:
                runnable.append(e)
                continue
            tally.add(e[0] + "/boot", "skip")
            print("boot %s: skipped (needs a QEMU %s x2APIC under %s; this is %s)" %
                  (e[0], "with" if need == "x2apic" else "without", accel, ver or "unknown"),
                  flush=True)
        entries = runnable
        budget = a.vcpus or VCPUS_PER_CORE * (os.cpu_count() or 1)
        print("boot matrix: at most %d boots and %d vCPUs at once (%d host cores); "
              "bigger boots alone" % (max(1, a.jobs), budget, os.cpu_count() or 1), flush=True)
        weigher = Weigher(budget, max(1, a.jobs))
        # Biggest first, so a big boot does not wait behind a stream of small ones.
        order = sorted(entries, key=lambda e: -boot_vcpus(e[1]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = {e[0]: ex.submit(boot_weighed, weigher, e, accel, a.timeout, a.kernel)
                    for e in order}
            for e in entries:       # results printed in matrix order
                judge_boot(futs[e[0]].result(), tally)

    if tally.failed:
        print("\nFAILED:")
        for n in tally.failed:
            print("  " + n)
        shown = set()
        for n in tally.failed:
            d = tally.details.get(n)
            if d and d not in shown:
                shown.add(d)
                print("\n=== %s ===\n%s" % (n, d))
        print()
    summary = "%d passed, %d failed" % (len(tally.passed), len(tally.failed))
    if tally.skipped:
        summary += ", %d skipped" % len(tally.skipped)
    print(summary, flush=True)
    return 0 if not tally.failed else 1


if __name__ == "__main__":
    sys.exit(main())
