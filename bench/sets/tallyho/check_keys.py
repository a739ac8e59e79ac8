#!/usr/bin/env python3
"""Check that every key group has a phrase in the cited source lines (normalised JSON text)."""
import json, os, re
HERE = os.path.dirname(os.path.abspath(__file__))
pj = json.load(open(os.path.join(HERE, "projects.json")))
files = {s["id"]: os.path.join(HERE, s["file"]) for p in pj["projects"] for s in p["sessions"]}
norm = lambda s: " ".join(s.lower().split())
bad = 0
for fn in ("questions.jsonl", "briefing.jsonl"):
    for line in open(os.path.join(HERE, fn)):
        q = json.loads(line)
        text = ""
        for part in q["source"].split("; "):
            sid, rng = part.split(" ")
            a, b = map(int, re.findall(r"\d+", rng))
            lines = open(files[sid]).read().split("\n")
            chunk = lines[a - 1:b]
            # match against raw JSON text and decoded strings
            text += " ".join(chunk)
            for l in chunk:
                def walk(v):
                    if isinstance(v, str): return [v]
                    if isinstance(v, dict): return sum((walk(x) for x in v.values()), [])
                    if isinstance(v, list): return sum((walk(x) for x in v), [])
                    return []
                text += " " + " ".join(walk(json.loads(l)))
        t = norm(text)
        for g in q["keys"]:
            if not any(norm(p) in t for p in g):
                bad += 1
                print("MISSING", q["id"], g)
print("bad groups:", bad)
