#!/usr/bin/env python3
"""Check: every key group has a phrase in the cited source lines; transcripts are valid."""
import json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
norm = lambda t: re.sub(r"\s+", " ", t.lower())
proj = json.load(open(os.path.join(HERE, "projects.json")))
files = {s["id"]: os.path.join(HERE, s["file"]) for p in proj["projects"] for s in p["sessions"]}
lines = {sid: open(f).read().splitlines() for sid, f in files.items()}
bad = 0
for sid, ls in lines.items():
    prev_t, prev_u = "", None
    for i, l in enumerate(ls, 1):
        d = json.loads(l)
        if "timestamp" in d:
            assert d["timestamp"] >= prev_t, (sid, i); prev_t = d["timestamp"]
        if "uuid" in d:
            assert d["parentUuid"] == prev_u, (sid, i); prev_u = d["uuid"]
for fn in ("questions.jsonl", "briefing.jsonl"):
    for row in map(json.loads, open(os.path.join(HERE, fn))):
        text = ""
        for part in row["source"].split("; "):
            sid, rng = part.split(" ")
            a, b = (int(x) for x in rng[1:].replace("L", "").split("-"))
            text += " ".join(lines[sid][a - 1:b]) + " "
        t = norm(text)
        for g in row["keys"]:
            if not any(norm(p) in t for p in g):
                bad += 1; print("MISSING", row["id"], g)
print("bad groups:", bad)
sys.exit(1 if bad else 0)
