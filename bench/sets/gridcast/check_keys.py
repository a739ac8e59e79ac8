"""Check that every key group has a phrase in the cited source lines (and basic format)."""
import json, os, re, sys
here = os.path.dirname(os.path.abspath(__file__))
proj = json.load(open(os.path.join(here, "projects.json")))
files = {s["id"]: os.path.join(here, s["file"]) for p in proj["projects"] for s in p["sessions"]}
lines = {}
for sid, f in files.items():
    ls = open(f).read().split("\n")[:-1]
    for i, l in enumerate(ls):
        json.loads(l)
    lines[sid] = ls
norm = lambda s: re.sub(r"\s+", " ", s.lower())
bad = 0
def check(rec, kind):
    global bad
    text = ""
    for part in rec["source"].split("; "):
        sid, rng = part.split(" ")
        a, b = map(int, rng[1:].replace("L", "").split("-"))
        assert 1 <= a <= b <= len(lines[sid]), (rec["id"], part)
        text += " " + " ".join(lines[sid][a - 1:b])
    t = norm(text)
    for g in rec["keys"]:
        if not any(norm(ph) in t for ph in g):
            bad += 1
            print("MISS", rec["id"], g)
    # how many single lines elsewhere satisfy all groups
    allhit = []
    for sid, ls in lines.items():
        for i, l in enumerate(ls):
            n = norm(l)
            if all(any(norm(ph) in n for ph in g) for g in rec["keys"]):
                allhit.append("%s:%d" % (sid[:8], i + 1))
    print(rec["id"], "ok" if True else "", "single-line full matches:", len(allhit))
for f in ("questions.jsonl", "briefing.jsonl"):
    for l in open(os.path.join(here, f)):
        check(json.loads(l), f)
kinds = {json.loads(l)["kind"] for l in open(os.path.join(here, "questions.jsonl"))}
print("kinds:", sorted(kinds))
print("misses:", bad)
sys.exit(1 if bad else 0)
