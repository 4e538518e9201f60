import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

GOOD = """\
early boot: cpu0 up
KTAP version 1
1..2
    KTAP version 1
    # Subtest: timer_wheel
    1..3
    ok 1 add_then_expire
    not ok 2 cascade
    # cascade: expected 5 got 6
    ok 3 big # SKIP no hpet
not ok 1 timer_wheel
# stat cpu=0 ticks=10
    KTAP version 1
    # Subtest: hier
    1..1
    ok 1 migrator
ok 2 hier
"""


class KtapTest(unittest.TestCase):
    def test_parse_nested(self):
        r = ktap.parse(GOOD)
        self.assertTrue(r.ok, r.errors)
        self.assertEqual(r.plan, 2)
        self.assertEqual([s.name for s in r.suites], ["timer_wheel", "hier"])
        self.assertEqual([c.name for c in r.suites[0].cases],
                         ["add_then_expire", "cascade", "big"])
        self.assertEqual(r.suites[0].result, ktap.FAIL)
        self.assertEqual(r.suites[1].result, ktap.PASS)
        self.assertEqual(r.counts(), {ktap.PASS: 2, ktap.FAIL: 1, ktap.SKIP: 1})

    def test_skip(self):
        r = ktap.parse(GOOD)
        c = r.suites[0].cases[2]
        self.assertEqual(c.status, ktap.SKIP)
        self.assertEqual(c.directive, "SKIP no hpet")
        self.assertEqual(ktap.parse_result_line("not ok 4 x # skip why")[0], ktap.SKIP)

    def test_not_ok(self):
        self.assertEqual(ktap.parse_result_line("not ok 2 cascade"),
                         (ktap.FAIL, 2, "cascade", ""))
        self.assertEqual(ktap.parse_result_line("ok 1 a b c")[2], "a b c")

    def test_missing_plan(self):
        r = ktap.parse(GOOD.replace("1..2\n", ""))
        self.assertFalse(r.ok)
        self.assertTrue(any("plan" in e for e in r.errors), r.errors)

    def test_plan_mismatch_and_truncation(self):
        r = ktap.parse(GOOD.split("ok 2 hier")[0])
        self.assertFalse(r.ok)
        self.assertTrue(any("no result line" in e for e in r.errors), r.errors)
        r = ktap.parse(GOOD.replace("1..2\n", "1..3\n"))
        self.assertTrue(any("1..3 but 2 suites" in e for e in r.errors), r.errors)

    def test_no_ktap(self):
        r = ktap.parse("cmdline: unknown option foo\n")
        self.assertFalse(r.found)
        self.assertFalse(r.ok)

    def test_crlf_and_escapes(self):
        text = "\x1b[2J\x1b[1;1HKTAP version 1\r\n" + GOOD.split("KTAP version 1\n", 1)[1] \
            .replace("\n", "\r\n")
        r = ktap.parse(text)
        self.assertTrue(r.ok, r.errors)
        self.assertEqual(len(list(r.cases())), 4)


if __name__ == "__main__":
    unittest.main()
