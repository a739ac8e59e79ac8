#!/usr/bin/env python3
"""Self-test of bench/raw_bm25.py and bench/recall_compare.py (ctest raw_bm25_test).

A set of two projects, three questions and two briefing facts written into a temp folder, one
transcript line of it not JSON. Checks the ranking, the matching rule, the briefing tail, the
comparison's lines and that two runs print the same bytes. Standard library only.
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import raw_bm25  # noqa: E402
import recall_compare  # noqa: E402

RECALL_BENCH = os.path.join(HERE, "..", "..", "shared", "tools", "recall-bench")


def jl(obj):
    return json.dumps(obj)


# Project alpha: two sessions (the first with a side file); project beta: one session.
ALPHA_1 = [
    jl({"type": "user", "message": {"role": "user", "content": "set up the kettle service"}}),
    jl({"type": "assistant", "message": {"content": [
        {"type": "text", "text": "The kettle service listens on port 8123."}]}}),
    "",
    '{"type": "user", "message": {"content": "broken [REDACTED] line about the kettle',  # not JSON
    jl({"type": "assistant", "kettle": 1, "message": {"content": "Done."}}),  # "kettle" only a key
]
ALPHA_SIDE = [jl({"type": "assistant", "isSidechain": True,
                  "message": {"content": "side note: the larch config lives in /etc/larch.toml"}})]
ALPHA_2 = [
    jl({"type": "user", "message": {"content": "why did we pick otter over heron?"}}),
    jl({"type": "assistant",
        "message": {"content": "We picked Otter   because heron\nleaks memory."}}),
    jl({"type": "assistant", "message": {"content": "Next: the deploy script is still open."}}),
]
BETA_1 = [
    jl({"type": "user", "message": {"content": "the kettle in beta is unrelated"}}),
    jl({"type": "assistant", "message": {"content": "Beta's build uses ninja."}}),
]
QUESTIONS = [
    {"id": "a-1", "project": "alpha", "kind": "where-is", "needs_agent_text": True,
     "question": "Which port does the kettle service listen on?", "keys": [["port 8123"]]},
    {"id": "a-2", "project": "alpha", "kind": "why-decision", "needs_agent_text": True,
     "question": "Why otter and not heron?", "keys": [["otter"], ["heron leaks", "heron is slow"]]},
    {"id": "b-1", "project": "beta", "kind": "convention", "needs_agent_text": False,
     "question": "What does the build of beta use?", "keys": [["make"]]},
]
BRIEFING = [
    {"id": "a-b1", "project": "alpha", "fact": "deploy script open", "keys": [["deploy script"]]},
    {"id": "b-b1", "project": "beta", "fact": "the kettle", "keys": [["kettle"]]},
]


def write_set(d):
    def put(rel, lines):
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    put("sessions/alpha/s1.jsonl", ALPHA_1)
    put("sessions/alpha/agent-x.jsonl", ALPHA_SIDE)
    put("sessions/alpha/s2.jsonl", ALPHA_2)
    put("sessions/beta/s3.jsonl", BETA_1)
    put("questions.jsonl", [jl(q) for q in QUESTIONS])
    put("briefing.jsonl", [jl(b) for b in BRIEFING])
    projects = {"projects": [
        {"name": "alpha", "origin": "https://example.com/alpha", "sessions": [
            {"id": "s1", "file": "sessions/alpha/s1.jsonl",
             "side_files": ["sessions/alpha/agent-x.jsonl"]},
            {"id": "s2", "file": "sessions/alpha/s2.jsonl"}]},
        {"name": "beta", "origin": "https://example.com/beta", "sessions": [
            {"id": "s3", "file": "sessions/beta/s3.jsonl"}]}]}
    with open(os.path.join(d, "projects.json"), "w", encoding="utf-8") as f:
        json.dump(projects, f)


class RawBm25Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="raw_bm25_test.")
        write_set(cls.dir)
        cls.rep = raw_bm25.baseline(cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def q(self, qid):
        return next(r for r in self.rep["per_question"] if r["id"] == qid)

    def test_documents(self):
        # alpha: s1's four non-empty lines, the side file's line, s2's three lines; beta: two
        self.assertEqual(self.rep["documents"], {"alpha": 8, "beta": 2})
        self.assertEqual(raw_bm25.line_text(ALPHA_1[4]), "assistant Done.")
        self.assertEqual(raw_bm25.line_text(ALPHA_1[3]), ALPHA_1[3])  # not JSON: the raw text

    def test_ranking(self):
        r = self.q("a-1")
        self.assertTrue(r["answered"])
        self.assertEqual(r["rank"], 1)
        self.assertEqual(r["lines"][0], "s1.jsonl L2")
        # then the other lines with "kettle" or "service", then two with only "the" (no stop
        # words); not the line whose only "kettle" is an object key, nor beta's kettle line
        self.assertEqual(r["lines"], ["s1.jsonl L2", "s1.jsonl L1", "s1.jsonl L4", "s2.jsonl L3",
                                      "agent-x.jsonl L1"])
        self.assertEqual(self.q("a-2")["lines"], ["s2.jsonl L1", "s2.jsonl L2"])
        self.assertEqual(self.q("a-2")["rank"], 2)
        self.assertEqual(r["top"][0], "assistant text The kettle service listens on port 8123.")

    def test_score_and_ties(self):
        idx = raw_bm25.Index(["a b", "a b", "c", "a a b c d"])
        n, avgdl = 4, 10 / 4
        idf_a = math.log(1 + (n - 3 + 0.5) / (3 + 0.5))
        want = idf_a * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 5 / avgdl))
        hits = idx.search("A a", 5)  # one word, counted once
        self.assertAlmostEqual(dict(hits)[3], want, places=12)
        self.assertEqual([d for d, _ in hits], [0, 1, 3])  # 0 and 1 tie: line order
        self.assertEqual(idx.search("zzz", 5), [])
        self.assertEqual(raw_bm25.tokens("Foo_bar-baz 42x É"), ["foo_bar", "baz", "42x", "é"])

    def test_matching_rule(self):
        self.assertTrue(self.q("a-2")["answered"])  # "Otter   because heron\nleaks": folded
        self.assertFalse(self.q("b-1")["answered"])
        norm, answers = raw_bm25.norm, raw_bm25.answers
        self.assertEqual(norm("  A\t\tB\n\u00a0c  "), "a b c")
        self.assertTrue(answers(norm("Heron\n LEAKS memory"), [["heron leaks"], ["x", "memory"]]))
        self.assertTrue(answers(norm("heron leaks"), [[" Heron  Leaks "]]))
        self.assertFalse(answers(norm("heron leaks"), [["heron"], ["otter"]]))

    def test_scores_and_briefing(self):
        self.assertEqual(self.rep["recall_at_5"], {"answered": 2, "total": 3, "score": 0.6667})
        self.assertEqual(self.rep["by_needs_agent_text"]["true"]["answered"], 2)
        self.assertEqual(self.rep["by_project"]["beta"], {"answered": 0, "total": 1, "score": 0.0})
        b = self.rep["briefing"]
        self.assertEqual((b["answered"], b["total"]), (2, 2))
        # the tail is of the latest session only: 20 characters of s2 miss "deploy script"
        small = raw_bm25.baseline(self.dir, briefing_chars=20)["briefing"]
        self.assertEqual(small["chars"], {"alpha": 20, "beta": 20})
        self.assertEqual([f["answered"] for f in small["per_fact"]], [False, False])

    def test_deterministic(self):
        script = os.path.join(HERE, "raw_bm25.py")
        runs = [subprocess.run([sys.executable, script, "--set", self.dir], capture_output=True,
                               check=True) for _ in range(2)]
        self.assertEqual(runs[0].stdout, runs[1].stdout)
        self.assertEqual(runs[0].stdout.decode("utf-8"), raw_bm25.dumps(self.rep))
        self.assertEqual(runs[0].stderr.decode().strip(),
                         "raw BM25 baseline: recall@5 0.667 (2/3), briefing 1.000 (2/2)")

    def test_compare(self):
        report = {"run": {"set_digest": self.rep["set_digest"], "only": None},
                  "recall": {"k": 5, "questions": 3, "answered": 3,
                             "by_kind": {"where-is": {"n": 1, "answered": 1, "fraction": 1.0}},
                             "by_project": {"alpha": {"n": 2, "answered": 2, "fraction": 1.0},
                                            "beta": {"n": 1, "answered": 1, "fraction": 1.0}}},
                  "briefing": {"facts": 2, "answered": 0, "context_chars_total": 0}}
        path = os.path.join(self.dir, "report.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(report, f)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = recall_compare.main(["--report", path, "--set", self.dir])
        self.assertEqual(rc, 0)
        self.assertEqual(err.getvalue(), "")
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], "recall@5: lore 1.000 (3/3) | raw BM25 0.667 (2/3) | +0.333")
        self.assertIn("  kind convention: lore n/a | raw BM25 0.000 (0/1) | n/a", lines)
        self.assertIn("  project beta: lore 1.000 (1/1) | raw BM25 0.000 (0/1) | +1.000", lines)
        self.assertIn("briefing: lore 0.000 (0/2) | raw BM25 1.000 (2/2) | -1.000", lines)

    @unittest.skipUnless(os.path.isfile(RECALL_BENCH), "../shared/tools/recall-bench not here")
    def test_same_rule_as_recall_bench(self):
        loader = importlib.machinery.SourceFileLoader("recall_bench", RECALL_BENCH)
        spec = importlib.util.spec_from_loader("recall_bench", loader)
        rb = importlib.util.module_from_spec(spec)
        loader.exec_module(rb)
        texts = [raw_bm25.line_text(x) for x in ALPHA_1 + ALPHA_2 + BETA_1 if x]
        texts += ["a\x1c\x1db", "x\u00a0\u2028 y ", "\u0130 Ab", "  ", "HERON\r\nleaks"]
        keys = [q["keys"] for q in QUESTIONS] + [[["heron leaks"]], [["a b"]], [["i̇ ab"]]]
        for t in texts:
            self.assertEqual(raw_bm25.norm(t), rb.norm(t))
            for k in keys:
                self.assertEqual(raw_bm25.answers(raw_bm25.norm(t), k), rb.matches(rb.norm(t), k))
        for x in ALPHA_1 + ALPHA_2:
            if x and x != ALPHA_1[3]:
                self.assertEqual(raw_bm25.line_text(x), " ".join(rb.strings_of(json.loads(x), [])))


if __name__ == "__main__":
    unittest.main()
