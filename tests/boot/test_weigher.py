"""Unit tests of run_tests.py's boot weighing: vCPU counts from tools/boot
arguments, and the admission of boots against the vCPU budget."""
import os
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_tests  # noqa: E402


class BootVcpus(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(run_tests.boot_vcpus(["--smp", "255", "--numa", "0-254"]), 255)
        self.assertEqual(run_tests.boot_vcpus(["--smp", "16,sockets=4,cores=2,threads=2"]), 16)
        self.assertEqual(run_tests.boot_vcpus(["--smp", "2,maxcpus=6"]), 6)
        self.assertEqual(run_tests.boot_vcpus(["--cmdline", "x"]), 8)   # tools/boot's default

    def test_every_matrix_entry_has_a_count(self):
        for name, args, _, _ in run_tests.MATRIX:
            self.assertGreater(run_tests.boot_vcpus(args), 0, name)


class Admission(unittest.TestCase):
    def run_boots(self, budget, jobs, sizes):
        """Run fake boots of @sizes vCPUs through a Weigher; return the peak vCPUs and
        boots running at once, and which sizes ever ran beside another boot."""
        w = run_tests.Weigher(budget, jobs)
        lock = threading.Lock()
        state = {"vcpus": 0, "boots": 0, "peak_vcpus": 0, "peak_boots": 0, "shared": set()}
        running = []

        def boot(n):
            w.acquire(n)
            with lock:
                running.append(n)
                state["vcpus"] += n
                state["boots"] += 1
                state["peak_vcpus"] = max(state["peak_vcpus"], state["vcpus"])
                state["peak_boots"] = max(state["peak_boots"], state["boots"])
                if len(running) > 1:
                    state["shared"].update(running)
            time.sleep(0.02)
            with lock:
                running.remove(n)
                state["vcpus"] -= n
                state["boots"] -= 1
            w.release(n)

        threads = [threading.Thread(target=boot, args=(n,)) for n in sizes]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        return state

    def test_budget_and_jobs_are_never_exceeded(self):
        st = self.run_boots(32, 2, [8, 8, 16, 4, 24, 8, 2, 1, 16, 16])
        self.assertLessEqual(st["peak_vcpus"], 32)
        self.assertLessEqual(st["peak_boots"], 2)

    def test_a_boot_over_the_budget_runs_alone(self):
        st = self.run_boots(32, 2, [255, 2, 3, 300, 64, 1, 2])
        for big in (255, 300, 64):
            self.assertNotIn(big, st["shared"])

    def test_small_boots_do_share(self):
        st = self.run_boots(32, 2, [2, 2, 2, 2, 2, 2])
        self.assertEqual(st["peak_boots"], 2)


if __name__ == "__main__":
    unittest.main()
