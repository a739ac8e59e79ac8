#!/usr/bin/env python3
"""The raw-transcript baseline of the recall benchmark (docs/recall.md): what a person gets by
searching their own Claude Code transcripts, with no memory system at all.

    bench/raw_bm25.py [--set DIR] [-k 5] [--briefing-chars 8000]

For each project of the set (the format of ../shared/data/recall/README.md), the documents are
the project's raw transcript lines: every non-empty line of every session file, then that
session's side files, sessions in the order of projects.json. A line's text is every string value
of its JSON joined by spaces (recursively, keys left out: how recall-bench builds a hit's text);
a line that is not JSON is its raw text.

  recall@k   Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5) / (n + 0.5))) over the
             project's lines; tokens are the runs of re's \\w in the lowercased text (letters,
             digits and the underscore: `lan_drop_leaked_dns` is one token), no stemming, no stop
             words; each distinct word of the question counts once. The top k lines with a score
             above 0, ties by line order. A question is answered when one of them matches its
             keys (recall-bench's rule: every key group has one of its phrases in the text,
             both lowercased and every white space run made one space).
  briefing   the last --briefing-chars characters (8000: lore's SessionStart context budget) of
             the texts of the project's latest session's lines (its transcript file, not its
             side files), joined by newlines; a fact is answered when that tail matches its keys.

Standard library only, deterministic (the same set gives byte-identical output). The JSON report
goes to stdout, a one-line summary to stderr. Exit 0, or 2 on a usage or set error.
"""
import argparse
import hashlib
import json
import math
import os
import re
import sys

K1 = 1.2
B = 0.75
TOKEN = re.compile(r"\w+")
SPACE = re.compile(r"\s+")


class SetError(Exception):
    pass


# --------------------------------------------------------------------------------------------
# matching: the behaviour of recall-bench's rule, written again

def norm(s):
    """Lowercase; every run of white space becomes one space, none at either end."""
    return SPACE.sub(" ", s.lower()).strip(" ")


def answers(text_norm, keys):
    """True when every key group has one of its phrases (normalised) in the normalised text."""
    for group in keys:
        if not any(norm(p) in text_norm for p in group):
            return False
    return True


def string_values(v, out):
    """Every string in a parsed JSON value, depth first, object keys left out."""
    if isinstance(v, str):
        out.append(v)
    elif isinstance(v, dict):
        for x in v.values():
            string_values(x, out)
    elif isinstance(v, list):
        for x in v:
            string_values(x, out)
    return out


def line_text(raw):
    """The document text of one transcript line (a str without its line ending)."""
    try:
        v = json.loads(raw)
    except ValueError:
        return raw
    return " ".join(string_values(v, []))


def tokens(text):
    return TOKEN.findall(text.lower())


# --------------------------------------------------------------------------------------------
# the set

def read_jsonl(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                raise SetError(f"{path}:{n}: not JSON ({e})")
    return rows


def load_set(d, only=None):
    d = os.path.abspath(d)
    try:
        with open(os.path.join(d, "projects.json"), encoding="utf-8") as f:
            pj = json.load(f)
    except (OSError, ValueError) as e:
        raise SetError(f"cannot read {d}/projects.json: {e}")
    projects = pj["projects"] if isinstance(pj, dict) else pj
    if not isinstance(projects, list) or not projects:
        raise SetError(f"{d}/projects.json: expected {{\"projects\": [...]}} with at least one")
    names = [p.get("name") for p in projects]
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise SetError(f"no such project: {', '.join(unknown)}")
        projects = [p for p in projects if p["name"] in only]
    keep = {p["name"] for p in projects}
    try:
        qs = [q for q in read_jsonl(os.path.join(d, "questions.jsonl")) if q["project"] in keep]
        bpath = os.path.join(d, "briefing.jsonl")
        bf = [b for b in read_jsonl(bpath) if b["project"] in keep] if os.path.exists(bpath) else []
    except OSError as e:
        raise SetError(str(e))
    for row in qs + bf:
        if row.get("project") not in names:
            raise SetError(f"{row.get('id')!r}: unknown project {row.get('project')!r}")
    # recall-bench's set digest, so that a report can be matched with its set
    h = hashlib.sha256()
    files = ["projects.json", "questions.jsonl", "briefing.jsonl"]
    for p in projects:
        for s in p["sessions"]:
            files.append(s["file"])
            files.extend(s.get("side_files", []))
    for rel in files:
        path = os.path.join(d, rel)
        if os.path.exists(path):
            h.update(rel.encode() + b"\0")
            with open(path, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return {"dir": d, "projects": projects, "questions": qs, "briefing": bf,
            "digest": h.hexdigest()}


def file_docs(d, rel):
    """The documents of one transcript file: (where, text) per non-empty line."""
    try:
        with open(os.path.join(d, rel), "rb") as f:
            data = f.read()
    except OSError as e:
        raise SetError(f"cannot read {os.path.join(d, rel)}: {e}")
    out = []
    for n, raw in enumerate(data.splitlines(), 1):  # \n, \r\n, \r: lines as the replay writes them
        if not raw.strip():
            continue
        out.append((f"{os.path.basename(rel)} L{n}", line_text(raw.decode("utf-8", "replace"))))
    return out


# --------------------------------------------------------------------------------------------
# BM25

class Index:
    def __init__(self, texts):
        self.n = len(texts)
        self.postings = {}  # word -> [(doc, tf)], docs ascending
        self.lengths = []
        for i, t in enumerate(texts):
            counts = {}
            for w in tokens(t):
                counts[w] = counts.get(w, 0) + 1
            self.lengths.append(sum(counts.values()))
            for w, c in counts.items():
                self.postings.setdefault(w, []).append((i, c))
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0

    def idf(self, word):
        df = len(self.postings.get(word, ()))
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def search(self, query, k):
        words = []
        for w in tokens(query):
            if w not in words:
                words.append(w)
        scores = {}
        for w in words:
            plist = self.postings.get(w)
            if not plist:
                continue
            idf = self.idf(w)
            for doc, tf in plist:
                norm_len = 1.0 - B + B * self.lengths[doc] / self.avgdl if self.avgdl else 1.0
                scores[doc] = scores.get(doc, 0.0) + idf * tf * (K1 + 1.0) / (tf + K1 * norm_len)
        ranked = sorted((d for d, s in scores.items() if s > 0.0), key=lambda d: (-scores[d], d))
        return [(d, scores[d]) for d in ranked[:k]]


# --------------------------------------------------------------------------------------------
# the baseline

def frac(a, n):
    return round(a / n, 4) if n else None


def tally(rows, key):
    out = {}
    for r in rows:
        k = r[key]
        k = "-" if k is None else (str(k).lower() if isinstance(k, bool) else str(k))
        d = out.setdefault(k, {"answered": 0, "total": 0})
        d["total"] += 1
        d["answered"] += 1 if r["answered"] else 0
    for d in out.values():
        d["score"] = frac(d["answered"], d["total"])
    return dict(sorted(out.items()))


def baseline(set_dir, k=5, briefing_chars=8000, only=None):
    """The baseline report (a dict) for the set at set_dir."""
    bset = load_set(set_dir, only)
    d = bset["dir"]
    docs, index, tails = {}, {}, {}
    for p in bset["projects"]:
        pd = []
        last = []
        for s in p["sessions"]:
            main = file_docs(d, s["file"])
            pd.extend(main)
            for side in s.get("side_files", []):
                pd.extend(file_docs(d, side))
            last = main
        docs[p["name"]] = pd
        index[p["name"]] = Index([t for _, t in pd])
        whole = "\n".join(t for _, t in last)
        tails[p["name"]] = whole[-briefing_chars:] if briefing_chars > 0 else ""

    per_q = []
    for q in bset["questions"]:
        pd = docs[q["project"]]
        hits = index[q["project"]].search(q["question"], k)
        rank = None
        for i, (doc, _) in enumerate(hits, 1):
            if answers(norm(pd[doc][1]), q["keys"]):
                rank = i
                break
        per_q.append({"id": q["id"], "project": q["project"], "kind": q.get("kind"),
                      "needs_agent_text": q.get("needs_agent_text"),
                      "answered": rank is not None, "rank": rank,
                      "lines": [pd[doc][0] for doc, _ in hits],
                      "top": [pd[doc][1][:200] for doc, _ in hits]})
    per_f = [{"id": f["id"], "project": f["project"],
              "answered": answers(norm(tails[f["project"]]), f["keys"])}
             for f in bset["briefing"]]

    qa = sum(1 for r in per_q if r["answered"])
    fa = sum(1 for r in per_f if r["answered"])
    return {
        "tool": "raw_bm25 1.0",
        "set": d,
        "set_digest": bset["digest"],
        "params": {"k": k, "k1": K1, "b": B, "tokens": "re \\w+ of the lowercased text "
                   "(underscore kept in a token), no stemming, no stop words",
                   "briefing_chars": briefing_chars},
        "documents": {p: len(v) for p, v in docs.items()},
        f"recall_at_{k}": {"answered": qa, "total": len(per_q), "score": frac(qa, len(per_q))},
        "by_kind": tally(per_q, "kind"),
        "by_project": tally(per_q, "project"),
        "by_needs_agent_text": tally(per_q, "needs_agent_text"),
        "briefing": {"answered": fa, "total": len(per_f), "score": frac(fa, len(per_f)),
                     "chars": {p: len(t) for p, t in tails.items()},
                     "by_project": tally(per_f, "project"),
                     "per_fact": per_f},
        "per_question": [{key: r[key] for key in ("id", "answered", "rank", "lines", "top")}
                         for r in per_q],
    }


def summary(rep):
    k = rep["params"]["k"]
    r, b = rep[f"recall_at_{k}"], rep["briefing"]

    def f(x):
        return "n/a" if x["score"] is None else f"{x['score']:.3f}"
    return (f"raw BM25 baseline: recall@{k} {f(r)} ({r['answered']}/{r['total']}), "
            f"briefing {f(b)} ({b['answered']}/{b['total']})")


def dumps(rep):
    return json.dumps(rep, indent=1, ensure_ascii=False) + "\n"


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default=os.path.join(here, "..", "..", "shared", "data", "recall"),
                    help="the set folder (default: ../shared/data/recall, the dev set)")
    ap.add_argument("-k", type=int, default=5, help="lines per question (default 5)")
    ap.add_argument("--briefing-chars", type=int, default=8000,
                    help="characters of the latest session's tail (default 8000, lore's "
                         "SessionStart context budget)")
    ap.add_argument("--only", action="append", metavar="PROJECT",
                    help="only this project (repeatable)")
    args = ap.parse_args(argv)
    if args.k < 1 or args.briefing_chars < 0:
        print("raw_bm25: -k must be at least 1 and --briefing-chars at least 0", file=sys.stderr)
        return 2
    try:
        rep = baseline(args.set, args.k, args.briefing_chars, args.only)
    except (SetError, KeyError, TypeError) as e:
        print(f"raw_bm25: set error: {e}", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(dumps(rep).encode("utf-8", "replace"))
    sys.stdout.flush()
    print(summary(rep), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
