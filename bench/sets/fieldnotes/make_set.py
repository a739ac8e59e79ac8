#!/usr/bin/env python3
"""Regenerate the fieldnotes check set: sessions/, projects.json, questions.jsonl, briefing.jsonl.

Sessions are described in s1.py .. s4.py (turn lists built with lib_transcript.Session);
question/fact sources are computed from marks placed in those scripts, then every key group is
checked against the cited transcript lines.
"""
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import s1, s2, s3, s4  # noqa: E402

PROJECT = "fieldnotes"
CWD = "/home/kim/work/fieldnotes"

S = {k: m.build() for k, m in (("s1", s1), ("s2", s2), ("s3", s3), ("s4", s4))}


def ln(sess, ref):
    s = S[sess]
    if isinstance(ref, int):
        return ref
    if isinstance(ref, tuple):
        return s.marks[ref[0]] + ref[1]
    if ref == "end":
        return len(s.lines)
    return s.marks[ref]


def src(*ranges):
    out = []
    for sess, a, b in ranges:
        out.append("%s L%d-L%d" % (S[sess].id, ln(sess, a), ln(sess, b)))
    return "; ".join(out)


QUESTIONS = [
    dict(kind="what-failed", question="Which api tests were failing when I picked the project back up, and what did they report?",
         answer="Two tests in apps/api/src/lib/geo.test.ts (formatCoordinates: 'formats southern and western hemispheres' and "
                "'formats a point just south of the equator') failed under `pnpm --filter @fieldnotes/api test`: expected "
                "'33.8688° S, 70.6693° W', received '-33.8688° N, -70.6693° E'. They were fixed the same session (all tests pass).",
         keys=[["geo.test.ts", "formatcoordinates"], ["southern and western", "south of the equator", "-33.8688° n"]],
         source=src(("s1", "s1_fail", ("s1_fail", 1))), needs_agent_text=True),
    dict(kind="how-fixed", question="How was the formatCoordinates hemisphere bug in the api fixed?",
         answer="Commit e91b7c2 ('refactor(api): simplify formatCoordinates') had dropped the N/S, E/W selection and Math.abs. "
                "The agent restored them in apps/api/src/lib/geo.ts; `pnpm -r test` then passed (api 34/34) and typecheck was clean. "
                "Committed as 3f9c2e1 on fix/geo-hemisphere, PR #48.",
         keys=[["formatcoordinates", "geo.ts"], ["math.abs", "hemisphere"], ["e91b7c2", "3f9c2e1", "fix/geo-hemisphere"]],
         source=src(("s1", ("s1_fail", 4), ("s1_pass", 1)), ("s1", "s1_summary", "s1_summary")), needs_agent_text=True),
    dict(kind="convention", question="What do I have to do before committing, and can I commit to main?",
         answer="Run `pnpm -r typecheck` before every commit (the husky/lint-staged hook only lints, it doesn't typecheck). "
                "Never commit or push to main directly: work on a branch and open a PR, even for small fixes. "
                "Commit messages follow conventional commits.",
         keys=[["typecheck"], ["main directly", "commit or push to main", "goes through a pr", "branches and prs"]],
         source=src(("s1", "s1_claude_md", ("s1_claude_md", 1)), ("s1", "s1_convention", ("s1_convention", 1))),
         needs_agent_text=False),
    dict(kind="convention", question="Can I use npm or npx in this repo?",
         answer="No. pnpm only (CLAUDE.md: 'use pnpm, never npm (or npx)'); use `pnpm exec` / `pnpm --filter <pkg> exec` instead of "
                "npx. The person rejected an `npx prisma --version` call: npx can pull the latest prisma (6.x) instead of the "
                "workspace's 5.22.",
         keys=[["pnpm exec", "pnpm, never npm", "pnpm only"], ["npx"]],
         source=src(("s1", "s1_claude_md", ("s1_claude_md", 1)), ("s4", ("s4_npx", -3), ("s4_npx", 4))),
         needs_agent_text=False),
    dict(kind="what-failed", question="What was the Sentry error on staging that led to the coordinates migration?",
         answer="Sentry FIELDNOTES-API-3K on POST /sync: TypeError: Cannot read properties of null (reading 'split') in "
                "parseLocation (apps/api/dist/lib/geo.js). Notes saved in the field before the phone had a GPS fix have a null "
                "location, and sync.ts called parseLocation on both branches of its ternary.",
         keys=[["parselocation"], ["reading 'split'", "of null", "gps fix"], ["/sync", "sync.ts"]],
         source=src(("s2", "s2_sentry", ("s2_decision", -3))), needs_agent_text=False),
    dict(kind="why-decision", question="Why did we replace Note.location with latitude/longitude columns instead of just null-guarding the parser?",
         answer="Kim chose the migration over a quick null guard: parsing the 'lat,lng' string was always a hack, and the map "
                "view needs real 'notes near this site' queries; the old startsWith prefix match on the string was useless. Two "
                "nullable Float columns with an index allow a bounding-box (gte/lte) query.",
         keys=[["latitude", "float"], ["near this site", "bounding box", "bounding-box"], ["hack", "startswith"]],
         source=src(("s2", ("s2_decision", -3), ("s2_decision", 1))), needs_agent_text=False),
    dict(kind="where-is", question="Where is the migration that split the note location, and how does it fill the new columns?",
         answer="packages/db/prisma/migrations/20261105092718_split_note_location/migration.sql. Created with --create-only, then "
                "its INSERT was edited to backfill latitude/longitude from the old 'lat,lng' text via CASE WHEN instr(location, ',') "
                "> 0 THEN CAST(substr(...) AS REAL); 212 of 247 dev notes got coordinates, 35 stay NULL.",
         keys=[["20261105092718_split_note_location", "split_note_location"], ["substr", "instr", "backfill"]],
         source=src(("s2", ("s2_migration", -3), ("s2_migration", 9))), needs_agent_text=True),
    dict(kind="what-failed", question="What did the workspace typecheck catch after the Prisma schema change?",
         answer="`pnpm -r typecheck` failed in apps/web: src/components/NoteCard.tsx(23,23) error TS2339: Property 'location' does "
                "not exist on type 'Note'. NoteCard was changed to read note.latitude/note.longitude and typecheck passed.",
         keys=[["notecard"], ["ts2339", "property 'location' does not exist"]],
         source=src(("s2", "s2_typecheck", ("s2_typecheck", 7))), needs_agent_text=True),
    dict(kind="how-fixed", question="The commit for the coordinates change was rejected by the pre-commit hook. What did it complain about and how was it fixed?",
         answer="husky's lint-staged ran eslint --max-warnings=0: NoteCard.tsx had an unused, duplicated `parseLatLng` import from "
                "'@/lib/geo' (no-unused-vars, import/no-duplicates) and notes.ts an unused `parseNear` helper. The import was "
                "merged/removed and parseNear deleted, eslint passed, and the commit landed as 8b41d07 on feat/note-coordinates (PR #51).",
         keys=[["eslint", "lint-staged", "pre-commit"], ["parselatlng", "parsenear"], ["8b41d07"]],
         source=src(("s2", "s2_hook_fail", ("s2_commit", 1))), needs_agent_text=True),
    dict(kind="why-decision", question="Which storage did we choose for note photos, and why?",
         answer="Option 3: Cloudflare R2 with presigned PUT URLs (Kim answered '3'). Phones upload straight to the bucket, so photos "
                "never pass through the single 512 MB Fly machine or fill its 3 GB volume; the api only signs URLs and stores keys; "
                "R2 has no egress fees. Rejected: SQLite BLOBs, files on the Fly volume, AWS S3 (egress fees).",
         keys=[["r2"], ["presigned"], ["egress", "512 mb", "3 gb volume"]],
         source=src(("s3", "s3_options", ("s3_decision_text", 0))), needs_agent_text=True),
    dict(kind="where-is", question="Where is the code that creates the presigned upload URLs for photos, and what are the endpoints?",
         answer="apps/api/src/lib/storage.ts (R2 S3Client, photoKey, presignUpload, presignView, objectExists) and "
                "apps/api/src/routes/photos.ts: POST /notes/:id/photos/presign, POST /notes/:id/photos (confirm after a HEAD check), "
                "GET /notes/:id/photos. Web side: apps/web/src/lib/uploadPhoto.ts.",
         keys=[["storage.ts"], ["/photos/presign", "presignupload"]],
         source=src(("s3", "s3_storage", ("s3_storage", 8)), ("s3", "s3_summary", "s3_summary")), needs_agent_text=True),
    dict(kind="what-state", question="Is the R2 bucket for photos set up? What is left to do for photo uploads?",
         answer="The code is done and committed (c47e9a2 on feat/photo-uploads, pushed; all tests pass). The fieldnotes-photos "
                "bucket, its CORS policy and the R2_* Fly secrets were NOT set up; Kim said he'd do them himself. The CORS JSON and "
                "env vars are in docs/storage.md.",
         keys=[["cors"], ["docs/storage.md", "myself", "nothing was created"]],
         source=src(("s3", "s3_commit", "end")), needs_agent_text=True),
    dict(kind="where-is", question="Where are the R2 settings documented, and which environment variables does the api need for photos?",
         answer="docs/storage.md: flow, bucket CORS JSON (PUT/GET/HEAD, content-type, expose ETag) and env vars R2_ACCOUNT_ID, "
                "R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY, R2_BUCKET (default fieldnotes-photos), set with fly secrets; also in .env.example.",
         keys=[["docs/storage.md"], ["r2_access_key_id", "r2_account_id", "r2_secret_access_key"]],
         source=src(("s3", "s3_docs", ("s3_docs", 3))), needs_agent_text=True),
    dict(kind="open-problem", question="Why does the api Docker image still crash on startup?",
         answer="Still open. After three fixes the runner (node:20-alpine, alpine 3.21, musl 1.2.5) fails to load Prisma's query "
                "engine: libquery_engine-linux-musl-openssl-3.0.x.so.node: __res_init: symbol not found. Diagnosis: Prisma 5.22's musl "
                "engine vs musl 1.2.5. Untried options: pin node:20-alpine3.18, use node:20-bookworm-slim for the runner, or upgrade to Prisma 6.",
         keys=[["__res_init", "musl 1.2.5", "alpine 3.21"], ["alpine3.18", "bookworm-slim", "prisma 6"]],
         source=src(("s4", "s4_try2", "end")), needs_agent_text=True),
    dict(kind="what-state", question="What state did we leave the fix/api-docker-musl branch in?",
         answer="Uncommitted changes (Kim said don't commit): schema.prisma binaryTargets = ['native', 'linux-musl-openssl-3.0.x']; "
                "Dockerfile runner `apk add --no-cache openssl` and a COPY of the generated .prisma/client from the build stage "
                "(hardcoded pnpm store path). Nothing deployed; Fly still crashloops.",
         keys=[["binarytargets", "linux-musl-openssl-3.0.x"], ["uncommitted", "don't commit", "not committed"], ["openssl"]],
         source=src(("s4", "s4_binary_targets", "end")), needs_agent_text=True),
    dict(kind="what-failed", question="Why did the api image end up with a '@prisma/client did not initialize yet' client?",
         answer="`pnpm deploy --prod /out` reinstalls the api's production dependencies: prisma (the CLI) is a devDependency of "
                "packages/db, so it is dropped and @prisma/client's postinstall can't generate; the image only had the stub "
                "default.js. Generating in the runner failed (prisma: not found, exit 127); copying the generated .prisma/client "
                "from the build stage got past it.",
         keys=[["pnpm deploy"], ["devdependency", "not found", "no cli"]],
         source=src(("s4", "s4_run3", ("s4_try2", -1))), needs_agent_text=True),
]

BRIEFING = [
    dict(fact="What the project is: fieldnotes, an offline-first note-taking app for field researchers; pnpm monorepo with "
              "apps/web (Next.js), apps/api (Fastify), packages/db (Prisma on SQLite), vitest, husky + lint-staged.",
         keys=[["field researchers"], ["fastify", "next.js", "prisma"]],
         source=src(("s1", "s1_manifest", ("s1_claude_md", 1)))),
    dict(fact="Last task and state: the api's Docker image (alpine runner) crashloops on Fly; fixes so far are uncommitted on "
              "branch fix/api-docker-musl.",
         keys=[["docker", "dockerfile"], ["fix/api-docker-musl"]],
         source=src(("s4", "s4_start", "end"))),
    dict(fact="Open problem: Prisma's linux-musl-openssl-3.0.x query engine fails to load on node:20-alpine (alpine 3.21, musl "
              "1.2.5): '__res_init: symbol not found'; options: alpine3.18, bookworm-slim runner, or Prisma 6.",
         keys=[["musl", "alpine"], ["__res_init", "query engine"]],
         source=src(("s4", "s4_try2", "end"))),
    dict(fact="Conventions: pnpm only, never npm/npx (use pnpm exec); run pnpm -r typecheck before committing; never commit or "
              "push to main, branch + PR.",
         keys=[["npx", "never npm", "pnpm only"], ["typecheck"]],
         source=src(("s1", "s1_claude_md", ("s1_claude_md", 1)), ("s1", "s1_convention", ("s1_convention", 1)),
                    ("s4", ("s4_npx", -3), ("s4_npx", 1)))),
    dict(fact="Key files: photos are uploaded directly to Cloudflare R2 via presigned URLs (apps/api/src/lib/storage.ts, "
              "routes/photos.ts); bucket/CORS/secrets setup in docs/storage.md, not yet done.",
         keys=[["r2"], ["storage.ts", "docs/storage.md"]],
         source=src(("s3", "s3_storage", ("s3_storage", 1)), ("s3", "s3_summary", "s3_summary"))),
]


def norm(t):
    return re.sub(r"\s+", " ", t.lower())


def strings(o):
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for v in o.values():
            yield from strings(v)
    elif isinstance(o, list):
        for v in o:
            yield from strings(v)


def check_keys(item, raw):
    """Every key group must have a phrase in the cited lines (raw JSON text or decoded strings)."""
    texts = []
    for part in item["source"].split("; "):
        sid, rng = part.split(" ")
        a, b = (int(x[1:]) for x in rng.split("-"))
        for line in raw[sid][a - 1:b]:
            texts.append(norm(line))
            texts.append(norm(" ".join(strings(json.loads(line)))))
    blob = "\n".join(texts)
    bad = [g for g in item["keys"] if not any(norm(p) in blob for p in g)]
    return bad


def main():
    os.makedirs(os.path.join(HERE, "sessions", PROJECT), exist_ok=True)
    sessions = []
    raw = {}
    for k in ("s1", "s2", "s3", "s4"):
        s = S[k]
        rel = "sessions/%s/%s.jsonl" % (PROJECT, s.id)
        path = os.path.join(HERE, rel)
        s.dump(path)
        data = open(path, "rb").read()
        raw[s.id] = data.decode().splitlines()
        for i, line in enumerate(raw[s.id], 1):
            json.loads(line)
        n = len(raw[s.id])
        assert 60 <= n <= 250, (k, n)
        first_ts = next(d["timestamp"] for d in s.lines if "timestamp" in d)
        ts = [d["timestamp"] for d in s.lines if "timestamp" in d and d.get("type") != "file-history-snapshot"]
        assert ts == sorted(ts), k
        entry = {"id": s.id, "file": rel, "first_timestamp": first_ts, "lines": n, "malformed_lines": 0,
                 "cwds": [CWD], "sha256": hashlib.sha256(data).hexdigest(),
                 "source": {"repository": "synthetic (written for the fieldnotes check set)", "licence": "CC0-1.0"}}
        if s.prefix_lines:
            entry["prefix_lines"] = s.prefix_lines
            entry["start"] = "resume"
        sessions.append(entry)
    projects = {"projects": [{
        "name": PROJECT, "origin": "https://github.com/kokafor/fieldnotes",
        "origin_note": "invented: synthetic sessions",
        "description": "fieldnotes: offline-first note-taking app for field researchers; pnpm monorepo with apps/web "
                       "(Next.js), apps/api (Fastify), packages/db (Prisma on SQLite).",
        "cwds": [CWD], "sessions": sessions}],
        "plant_session": S["s2"].id}
    with open(os.path.join(HERE, "projects.json"), "w") as f:
        json.dump(projects, f, indent=2, ensure_ascii=False)
        f.write("\n")

    problems = 0
    with open(os.path.join(HERE, "questions.jsonl"), "w") as f:
        for i, q in enumerate(QUESTIONS, 1):
            item = {"id": "fn-%02d" % i, "project": PROJECT, "kind": q["kind"], "question": q["question"],
                    "answer": q["answer"], "keys": q["keys"], "source": q["source"],
                    "needs_agent_text": q["needs_agent_text"]}
            bad = check_keys(item, raw)
            if bad:
                problems += 1
                print("KEY MISS", item["id"], bad, item["source"])
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "briefing.jsonl"), "w") as f:
        for i, b in enumerate(BRIEFING, 1):
            item = {"id": "fn-b%d" % i, "project": PROJECT, "fact": b["fact"], "keys": b["keys"], "source": b["source"]}
            bad = check_keys(item, raw)
            if bad:
                problems += 1
                print("KEY MISS", item["id"], bad, item["source"])
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    kinds = {}
    for q in QUESTIONS:
        kinds[q["kind"]] = kinds.get(q["kind"], 0) + 1
    print("sessions:", [(e["id"][:8], e["lines"], e.get("prefix_lines")) for e in sessions])
    print("questions:", len(QUESTIONS), kinds, "facts:", len(BRIEFING), "key problems:", problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
