#!/usr/bin/env python3
"""Checks: transcripts parse, timestamps increase, parentUuid chain, tool_use/tool_result pairs,
and every key group of every question/fact has a phrase in the cited lines (normalised JSON text)."""
import json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
norm = lambda t: re.sub(r"\s+", " ", t.lower())
proj = json.load(open(os.path.join(HERE, "projects.json")))
lines = {}
bad = 0
for p in proj["projects"]:
    for s in p["sessions"]:
        ls = open(os.path.join(HERE, s["file"])).read().splitlines()
        lines[s["id"]] = ls
        assert len(ls) == s["lines"] and 60 <= len(ls) <= 250, (s["id"], len(ls))
        prev_t, prev_u, pending = "", None, set()
        for i, l in enumerate(ls, 1):
            d = json.loads(l)
            if d.get("type") == "file-history-snapshot":
                continue
            assert d["sessionId"] == s["id"] and d["timestamp"] > prev_t, (s["id"], i)
            assert d["parentUuid"] == prev_u, (s["id"], i)
            prev_t, prev_u = d["timestamp"], d["uuid"]
            c = d["message"]["content"]
            if isinstance(c, list):
                for blk in c:
                    if blk["type"] == "tool_use":
                        pending.add(blk["id"])
                    elif blk["type"] == "tool_result":
                        pending.remove(blk["tool_use_id"])
        assert not pending, (s["id"], pending)
for fn in ("questions.jsonl", "briefing.jsonl"):
    for row in map(json.loads, open(os.path.join(HERE, fn))):
        text = ""
        for part in row["source"].split("; "):
            sid, rng = part.split(" ")
            a, b = (int(x) for x in rng[1:].replace("L", "").split("-"))
            assert 1 <= a <= b <= len(lines[sid]), row["id"]
            text += " ".join(lines[sid][a - 1:b]) + " "
        t = norm(text)
        for g in row["keys"]:
            if not any(norm(p) in t for p in g):
                bad += 1; print("MISSING", row["id"], g)
kinds = {json.loads(l)["kind"] for l in open(os.path.join(HERE, "questions.jsonl"))}
print("kinds:", sorted(kinds))
print("bad groups:", bad)
sys.exit(1 if bad else 0)
