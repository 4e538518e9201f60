"""The tree cites docs/ by name: check that the names hold (make test).

Code, tests and docs cite a section as `docs/races.md, "Section title"`
(or docs/design.md), or link `races.md#anchor` in Markdown.  These tests fail
when a cited section or anchor is missing (a title was renamed), when a test
that docs/races.md names does not exist, and when anything refers to a path
outside the tree.
"""
import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs")


def tree_files():
    """Files git tracks (else every file), relative to ROOT, build/ left out."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, check=True).stdout
        files = out.split()
    except (OSError, subprocess.CalledProcessError):
        files = [os.path.relpath(os.path.join(d, f), ROOT)
                 for d, _, fs in os.walk(ROOT) for f in fs]
    return [f for f in files if not f.startswith(("build/", ".git/"))
            and os.path.isfile(os.path.join(ROOT, f))
            and "/corpus/" not in f]


def read(rel):
    with open(os.path.join(ROOT, rel), errors="replace") as f:
        return f.read()


def anchor(title):
    """GitHub's anchor of a heading: lower case, punctuation dropped, '-' for ' '."""
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def headings(rel):
    """A page's headings, without Markdown's backticks (cited as plain text)."""
    return [h.replace("`", "") for h in re.findall(r"^#{1,6} (.+?)\s*$", read(rel), re.M)]


def unwrap(text):
    """Join lines wrapped inside comments: a newline and the next line's
    comment leader (' * ', '# ', '//') become one space."""
    return re.sub(r"\s*\n\s*(?:\*(?!/)|#|//)?\s*", " ", text)


class DocsTest(unittest.TestCase):
    def test_cited_sections_exist(self):
        titles = {page: set(headings("docs/%s.md" % page)) for page in ("races", "design")}
        bad = []
        for rel in tree_files():
            if rel == "tests/boot/test_docs.py":
                continue
            cites = re.findall(r'docs/(races|design)\.md,? \(?"([^"]+)"', unwrap(read(rel)))
            bad += ["%s: docs/%s.md, %s" % (rel, page, title) for page, title in cites
                    if title not in titles[page]]
        self.assertEqual(bad, [], "cited sections missing from docs/")

    def test_markdown_anchors_exist(self):
        bad = []
        for rel in tree_files():
            if not rel.endswith(".md"):
                continue
            base = os.path.dirname(rel)
            for target, frag in re.findall(r"\]\(([\w./-]*\.md)?#([\w-]+)\)", read(rel)):
                page = os.path.normpath(os.path.join(base, target)) if target else rel
                if not os.path.exists(os.path.join(ROOT, page)):
                    bad.append("%s: %s (no such page)" % (rel, page))
                elif frag not in {anchor(h) for h in headings(page)}:
                    bad.append("%s: %s#%s" % (rel, page, frag))
        self.assertEqual(bad, [], "links to missing headings")

    def test_races_tests_exist(self):
        rows = [l for l in read("docs/races.md").splitlines() if l.startswith("| [")]
        names = set(re.findall(r"`([a-z][a-z0-9_]+)`", "\n".join(rows)))
        defined = set()
        for rel in tree_files():
            if rel.startswith("tests/host/") and rel.endswith(".c"):
                defined |= set(re.findall(r"^START_TEST\((\w+)\)", read(rel), re.M))
        missing = sorted(n for n in names if n not in defined and "_" in n)
        self.assertTrue(names & defined, "no test names found in docs/races.md")
        self.assertEqual(missing, [], "tests named in docs/races.md that do not exist")

    def test_nothing_cites_outside_the_tree(self):
        pat = re.compile(r"\.\./shared|RACES\.md|seed[ ]patch|\bDESIGN\.md")
        bad = ["%s:%d" % (rel, n) for rel in tree_files()
               for n, line in enumerate(read(rel).splitlines(), 1) if pat.search(line)
               and rel != "tests/boot/test_docs.py"]
        self.assertEqual(bad, [], "references to files outside the tree")


if __name__ == "__main__":
    unittest.main()
