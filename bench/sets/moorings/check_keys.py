#!/usr/bin/env python3
"""Every key group must have a phrase in the cited source lines (normalised JSON text)."""
import json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
proj = json.load(open(os.path.join(HERE, "projects.json")))
files = {s["id"]: os.path.join(HERE, s["file"]) for p in proj["projects"] for s in p["sessions"]}
lines = {sid: open(f).read().split("\n") for sid, f in files.items()}
norm = lambda t: re.sub(r"\s+", " ", t.lower())
bad = 0
for fn in ("questions.jsonl", "briefing.jsonl"):
    for row in map(json.loads, open(os.path.join(HERE, fn))):
        text = ""
        for part in row["source"].split("; "):
            sid, rng = part.split(" ")
            a, b = (int(x) for x in rng[1:].split("-L"))
            text += " ".join(lines[sid][a - 1:b]) + " "
        t = norm(text)
        for g in row["keys"]:
            if not any(norm(p) in t for p in g):
                bad += 1
                print("MISSING", row["id"], g)
kinds = {json.loads(l)["kind"] for l in open(os.path.join(HERE, "questions.jsonl"))}
print("kinds:", sorted(kinds))
print("bad groups:", bad)
sys.exit(1 if bad else 0)
