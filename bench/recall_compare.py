#!/usr/bin/env python3
"""lore's recall figures beside the raw-transcript baseline (docs/recall.md).

    bench/recall_compare.py --report OUT/report.json --set DIR

Reads a report of ../shared/tools/recall-bench (its `recall` and `briefing` objects), computes
bench/raw_bm25.py's baseline on the same set (with the report's k and projects), and prints, per
figure, lore's score, the baseline's and the difference (lore minus baseline):

    recall@5: lore 0.702 (40/57) | raw BM25 0.614 (35/57) | +0.088

then the same per question kind and per project, and the briefing. A report made on other set
files (its set_digest differs from the set's) is said on stderr. Standard library only; exit 0,
or 2 on a usage, report or set error.
"""
import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import raw_bm25  # noqa: E402


def fmt(score):
    return "n/a" if score is None else f"{score:.3f}"


def line(label, lore, base):
    """lore and base: (answered, total) pairs or None."""
    def one(x):
        if x is None:
            return "n/a", None
        a, n = x
        s = a / n if n else None
        return f"{fmt(s)} ({a}/{n})", s
    ls, lv = one(lore)
    bs, bv = one(base)
    diff = f"{lv - bv:+.3f}" if lv is not None and bv is not None else "n/a"
    return f"{label}: lore {ls} | raw BM25 {bs} | {diff}"


def compare(report, base):
    """The comparison's lines (a list of str)."""
    rec, bri = report["recall"], report["briefing"]
    k = rec["k"]
    brec = base[f"recall_at_{k}"]
    out = [line(f"recall@{k}", (rec["answered"], rec["questions"]),
                (brec["answered"], brec["total"]))]
    for what, lore_rows, base_rows in (("kind", rec.get("by_kind", {}), base["by_kind"]),
                                       ("project", rec.get("by_project", {}), base["by_project"])):
        for name in sorted(set(lore_rows) | set(base_rows)):
            lr, br = lore_rows.get(name), base_rows.get(name)
            out.append("  " + line(f"{what} {name}",
                                   (lr["answered"], lr["n"]) if lr else None,
                                   (br["answered"], br["total"]) if br else None))
    bb = base["briefing"]
    out.append(line("briefing", (bri["answered"], bri["facts"]), (bb["answered"], bb["total"])))
    chars = bri.get("context_chars_total")
    if chars is not None:
        out.append(f"  briefing context: lore {chars} characters | raw BM25 "
                   f"{sum(bb['chars'].values())} characters (the last "
                   f"{base['params']['briefing_chars']} of each project's latest session)")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", required=True, help="recall-bench's report.json")
    ap.add_argument("--set", required=True, help="the set folder the report was made on")
    ap.add_argument("--briefing-chars", type=int, default=8000,
                    help="the baseline's briefing tail (default 8000)")
    args = ap.parse_args(argv)
    try:
        with open(args.report, encoding="utf-8") as f:
            report = json.load(f)
        k = report["recall"]["k"]
        only = (report.get("run") or {}).get("only")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"recall_compare: cannot read the report {args.report}: {e}", file=sys.stderr)
        return 2
    try:
        base = raw_bm25.baseline(args.set, k, args.briefing_chars, only)
    except (raw_bm25.SetError, KeyError, TypeError) as e:
        print(f"recall_compare: set error: {e}", file=sys.stderr)
        return 2
    digest = (report.get("run") or {}).get("set_digest")
    if digest and digest != base["set_digest"]:
        print(f"recall_compare: the report was made on other set files (set_digest {digest[:12]}, "
              f"{args.set}: {base['set_digest'][:12]})", file=sys.stderr)
    try:
        lines = compare(report, base)
    except (KeyError, TypeError) as e:
        print(f"recall_compare: the report lacks a field: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
