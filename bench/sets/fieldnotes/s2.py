from datetime import datetime, timezone
from lib_transcript import Session

CWD = "/home/kim/work/fieldnotes"

SCHEMA_OLD = """generator client {
  provider = "prisma-client-js"
}

datasource db {
  provider = "sqlite"
  url      = env("DATABASE_URL")
}

model Site {
  id        String   @id @default(cuid())
  name      String
  region    String?
  notes     Note[]
  createdAt DateTime @default(now())
}

model Note {
  id         String   @id @default(cuid())
  siteId     String
  site       Site     @relation(fields: [siteId], references: [id])
  title      String
  body       String
  location   String? // "lat,lng" in decimal degrees
  observedAt DateTime
  createdAt  DateTime @default(now())
  updatedAt  DateTime @updatedAt

  @@index([siteId, observedAt])
}"""

SENTRY = """here's the Sentry error from staging, 14 events since last night, all from the sync endpoint:

```
TypeError: Cannot read properties of null (reading 'split')
  at parseLocation (/app/apps/api/dist/lib/geo.js:19:33)
  at Array.map (<anonymous>)
  at serializeNotes (/app/apps/api/dist/routes/sync.js:58:24)
  at Object.<anonymous> (/app/apps/api/dist/routes/sync.js:112:22)
  at process.processTicksAndRejections (node:internal/process/task_queues:95:5)

Sentry issue FIELDNOTES-API-3K  |  level: error  |  environment: staging
route: POST /sync   release: api@0.4.0+e91b7c2
user: device 7f3a…c1 (Android, fieldnotes-web 0.4.0 PWA)
tags: handled=no, mechanism=onerror, runtime=node v20.18.0
breadcrumbs:
  09:02:11 http POST /sync 500
  09:02:11 prisma query Note.findMany { where: { siteId: 'clx9…', updatedAt: { gt: ... } } }
```

it's the thing you flagged on monday. people are saving notes in the field before the phone gets a GPS fix"""


def build():
    s = Session(202, datetime(2026, 11, 5, 9, 12, 40, 118000, tzinfo=timezone.utc), CWD, "main")
    s.mark("s2_sentry")
    s.user(SENTRY)
    s.say("That's the `parseLocation` null case: offline notes saved before a GPS fix have `location = null`, and "
          "`/sync` maps every note through `parseLocation`. Let me update main and look at the schema and all users of `location`.")
    s.bash("git switch main && git pull --ff-only", "Update main", """Switched to branch 'main'
Your branch is behind 'origin/main' by 2 commits, and can be fast-forwarded.
Updating e91b7c2..6ad0f3b
Fast-forward
 apps/api/src/lib/geo.ts | 5 ++++-
 1 file changed, 4 insertions(+), 1 deletion(-)""")
    s.mark("s2_schema")
    s.read(CWD + "/packages/db/prisma/schema.prisma", SCHEMA_OLD)
    s.grep("\\.location\\b|location:", CWD, """apps/api/src/lib/geo.ts:16:  const [lat, lng] = note.location.split(',').map(Number);
apps/api/src/routes/sync.ts:58:    location: note.location ? parseLocation(note) : parseLocation(note),
apps/api/src/routes/notes.ts:34:      location: body.location ? `${body.location.lat},${body.location.lng}` : null,
apps/api/src/routes/notes.ts:71:    ...(near ? { location: { startsWith: near.prefix } } : {}),
apps/web/src/components/NoteCard.tsx:23:  const coords = note.location ? formatCoordinates(parseLatLng(note.location)) : null;
apps/web/src/lib/offlineQueue.ts:88:      location: draft.location ?? null,
packages/shared/src/schemas.ts:41:  location: LatLngSchema.nullable(),""")
    s.say("Interesting: `sync.ts:58` has a ternary with both branches calling `parseLocation`, so the null check "
          "there never worked. Also `notes.ts:71` does \"near\" filtering with a string `startsWith` on the "
          "`\"lat,lng\"` text, which only matches identical leading digits.\n\n"
          "Two ways to fix this:\n\n"
          "- **Quick**: fix the ternary / null-guard `parseLocation`. Stops the 500s today, keeps the string column.\n"
          "- **Proper**: migrate `Note.location String?` to two nullable `Float` columns (`latitude`, `longitude`) with an "
          "index, backfill from the string, and drop string parsing entirely. That also lets the \"near\" filter become a "
          "real bounding-box query (`gte`/`lte`).\n\n"
          "I'd go with the migration. Which do you prefer?")
    s.turn_end()
    s.mark("s2_decision")
    s.user("do the migration. two float columns, not the string. the string parsing was always a hack and "
           "we need proper 'notes near this site' queries for the map view, the startsWith thing is useless for that")
    s.todo([("Branch feat/note-coordinates", "in_progress", "Creating branch"),
            ("Schema: replace Note.location with latitude/longitude Float?", "pending", "Editing schema"),
            ("Migration with backfill from the location string", "pending", "Writing migration"),
            ("Update api (geo.ts, sync.ts, notes.ts) and shared zod schema", "pending", "Updating api"),
            ("Fix web NoteCard", "pending", "Fixing web"),
            ("Tests + pnpm -r typecheck, commit, PR", "pending", "Verifying")])
    s.bash("git switch -c feat/note-coordinates", "Create feature branch", "Switched to a new branch 'feat/note-coordinates'")
    s.branch = "feat/note-coordinates"
    s.edit(CWD + "/packages/db/prisma/schema.prisma",
           "  location   String? // \"lat,lng\" in decimal degrees\n  observedAt DateTime\n  createdAt  DateTime @default(now())\n  updatedAt  DateTime @updatedAt\n\n  @@index([siteId, observedAt])",
           "  latitude   Float? // WGS84 decimal degrees, null until the device has a GPS fix\n  longitude  Float?\n  observedAt DateTime\n  createdAt  DateTime @default(now())\n  updatedAt  DateTime @updatedAt\n\n  @@index([siteId, observedAt])\n  @@index([latitude, longitude])",
           at=27)
    s.say("Creating the migration without applying it, so I can add the backfill by hand.")
    s.bash("pnpm --filter @fieldnotes/db exec prisma migrate dev --create-only --name split_note_location",
           "Create migration without applying", """Environment variables loaded from ../../.env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": SQLite database "dev.db" at "file:./dev.db"

⚠️  Warnings for the current datasource:

  • You are about to drop the column `location` on the `Note` table, which still contains 212 non-null values.

Prisma Migrate created the following migration without applying it 20261105092718_split_note_location

You can now edit it and apply it by running prisma migrate dev.""")
    s.mark("s2_migration")
    s.read(CWD + "/packages/db/prisma/migrations/20261105092718_split_note_location/migration.sql",
           """-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Note" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "siteId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "latitude" REAL,
    "longitude" REAL,
    "observedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Note_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Note" ("body", "createdAt", "id", "observedAt", "siteId", "title", "updatedAt") SELECT "body", "createdAt", "id", "observedAt", "siteId", "title", "updatedAt" FROM "Note";
DROP TABLE "Note";
ALTER TABLE "new_Note" RENAME TO "Note";
CREATE INDEX "Note_siteId_observedAt_idx" ON "Note"("siteId", "observedAt");
CREATE INDEX "Note_latitude_longitude_idx" ON "Note"("latitude", "longitude");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;""")
    s.say("As expected the generated copy drops the data. I'll make the INSERT backfill `latitude`/`longitude` from the "
          "`\"lat,lng\"` string, leaving NULL for missing or empty values.")
    s.edit(CWD + "/packages/db/prisma/migrations/20261105092718_split_note_location/migration.sql",
           "INSERT INTO \"new_Note\" (\"body\", \"createdAt\", \"id\", \"observedAt\", \"siteId\", \"title\", \"updatedAt\") SELECT \"body\", \"createdAt\", \"id\", \"observedAt\", \"siteId\", \"title\", \"updatedAt\" FROM \"Note\";",
           "-- backfill: split the old \"lat,lng\" text column into two REAL columns (NULL when missing)\n"
           "INSERT INTO \"new_Note\" (\"body\", \"createdAt\", \"id\", \"observedAt\", \"siteId\", \"title\", \"updatedAt\", \"latitude\", \"longitude\")\n"
           "SELECT \"body\", \"createdAt\", \"id\", \"observedAt\", \"siteId\", \"title\", \"updatedAt\",\n"
           "  CASE WHEN instr(\"location\", ',') > 0 THEN CAST(substr(\"location\", 1, instr(\"location\", ',') - 1) AS REAL) END,\n"
           "  CASE WHEN instr(\"location\", ',') > 0 THEN CAST(substr(\"location\", instr(\"location\", ',') + 1) AS REAL) END\n"
           "FROM \"Note\";", at=16)
    s.bash("pnpm --filter @fieldnotes/db exec prisma migrate dev", "Apply the migration to dev.db",
           """Environment variables loaded from ../../.env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": SQLite database "dev.db" at "file:./dev.db"

Applying migration `20261105092718_split_note_location`

The following migration(s) have been applied:

migrations/
  └─ 20261105092718_split_note_location/
    └─ migration.sql

Your database is now in sync with your schema.

✔ Generated Prisma Client (v5.22.0) to ./../../node_modules/.pnpm/@prisma+client@5.22.0_prisma@5.22.0/node_modules/@prisma/client in 91ms""", dur=(5, 12))
    s.bash("sqlite3 packages/db/prisma/dev.db \"select count(*), count(latitude), min(latitude), max(latitude) from Note;\"",
           "Check the backfill", "247|212|-41.2865|64.1466")
    s.say("247 notes, 212 with coordinates (matches the 212 non-null values Prisma warned about), the other 35 are "
          "the GPS-less ones. Now the api side.")
    s.edit(CWD + "/apps/api/src/lib/geo.ts",
           "/** Notes store location as \"lat,lng\" (see packages/db schema). */\nexport function parseLocation(note: Pick<Note, 'location'>): LatLng {\n  const [lat, lng] = note.location.split(',').map(Number);\n  return { lat, lng };\n}",
           "/** null when the note was saved before the device had a GPS fix. */\nexport function noteLatLng(note: Pick<Note, 'latitude' | 'longitude'>): LatLng | null {\n  if (note.latitude == null || note.longitude == null) return null;\n  return { lat: note.latitude, lng: note.longitude };\n}\n\n/** Bounding box of +-radiusKm around a point (good enough away from the poles). */\nexport function boundingBox({ lat, lng }: LatLng, radiusKm: number) {\n  const dLat = radiusKm / 111.32;\n  const dLng = radiusKm / (111.32 * Math.cos((lat * Math.PI) / 180));\n  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };\n}",
           at=16)
    s.edit(CWD + "/apps/api/src/routes/sync.ts",
           "    location: note.location ? parseLocation(note) : parseLocation(note),",
           "    location: noteLatLng(note),", at=58)
    s.edit(CWD + "/apps/api/src/routes/sync.ts",
           "import { parseLocation } from '../lib/geo';", "import { noteLatLng } from '../lib/geo';", at=4)
    s.edit(CWD + "/apps/api/src/routes/notes.ts",
           "  const near = request.query.near ? parseNear(request.query.near) : null;\n  const notes = await prisma.note.findMany({\n    where: {\n      siteId,\n    ...(near ? { location: { startsWith: near.prefix } } : {}),",
           "  const box = request.query.near\n    ? boundingBox(request.query.near, request.query.radiusKm ?? 2)\n    : null;\n  const notes = await prisma.note.findMany({\n    where: {\n      siteId,\n    ...(box\n      ? {\n          latitude: { gte: box.minLat, lte: box.maxLat },\n          longitude: { gte: box.minLng, lte: box.maxLng },\n        }\n      : {}),",
           at=67)
    s.edit(CWD + "/apps/api/src/routes/notes.ts",
           "      location: body.location ? `${body.location.lat},${body.location.lng}` : null,",
           "      latitude: body.location?.lat ?? null,\n      longitude: body.location?.lng ?? null,", at=34)
    s.say("Adding a regression test for the Sentry case (a note without coordinates going through `/sync`).")
    s.edit(CWD + "/apps/api/src/routes/sync.test.ts",
           "describe('POST /sync', () => {",
           "describe('POST /sync', () => {\n  it('returns notes saved without a GPS fix with location: null', async () => {\n    const site = await seedSite();\n    await prisma.note.create({ data: { siteId: site.id, title: 'no fix yet', body: '', observedAt: new Date(), latitude: null, longitude: null } });\n    const res = await app.inject({ method: 'POST', url: '/sync', payload: { siteId: site.id, since: null } });\n    expect(res.statusCode).toBe(200);\n    expect(res.json().notes[0].location).toBeNull();\n  });\n",
           at=12)
    s.bash("pnpm --filter @fieldnotes/api test", "Run api tests", """
> @fieldnotes/api@0.4.0 test /home/kim/work/fieldnotes/apps/api
> vitest run


 RUN  v2.1.4 /home/kim/work/fieldnotes/apps/api

 ✓ src/lib/geo.test.ts (6 tests) 5ms
 ✓ src/lib/sync.test.ts (9 tests) 19ms
 ✓ src/routes/sync.test.ts (4 tests) 131ms
 ✓ src/routes/sites.test.ts (7 tests) 60ms
 ✓ src/routes/notes.test.ts (12 tests) 124ms

 Test Files  5 passed (5)
      Tests  38 passed (38)
   Start at  09:41:55
   Duration  1.34s (transform 230ms, setup 0ms, collect 601ms, tests 339ms, environment 1ms, prepare 402ms)""")
    s.say("API tests pass. Typecheck across the workspace next, since web still uses `note.location`.")
    s.mark("s2_typecheck")
    s.bash("pnpm -r typecheck", "Typecheck all workspace packages", """Scope: 4 of 5 workspace projects
packages/shared typecheck$ tsc --noEmit
packages/shared typecheck: Done
packages/db typecheck$ tsc --noEmit
packages/db typecheck: Done
apps/api typecheck$ tsc --noEmit
apps/api typecheck: Done
apps/web typecheck$ tsc --noEmit
apps/web typecheck: src/components/NoteCard.tsx(23,23): error TS2339: Property 'location' does not exist on type 'Note'.
apps/web typecheck: src/components/NoteCard.tsx(23,63): error TS2339: Property 'location' does not exist on type 'Note'.
apps/web typecheck: Failed
/home/kim/work/fieldnotes/apps/web:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @fieldnotes/web@0.4.0 typecheck: `tsc --noEmit`
Exit status 2""", err=True, dur=(10, 25))
    s.read(CWD + "/apps/web/src/components/NoteCard.tsx", """import { formatCoordinates } from '@/lib/geo';
import type { Note } from '@fieldnotes/db';
import { parseLatLng } from '@/lib/geo';
import { SiteBadge } from './SiteBadge';

interface Props {
  note: Note & { site: { name: string } };
  onOpen?: (id: string) => void;
}

function formatObserved(d: Date) {
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function NoteCard({ note, onOpen }: Props) {
  // The card is also rendered for drafts that were never synced;
  // those have no site yet and fall back to "Unfiled".
  const siteName = note.site?.name ?? 'Unfiled';
  const handleClick = () => onOpen?.(note.id);

  // Location is optional: notes saved before a GPS fix have none.
  // parseLatLng returns null for malformed strings.
  const coords = note.location ? formatCoordinates(parseLatLng(note.location)) : null;""")
    s.edit(CWD + "/apps/web/src/components/NoteCard.tsx",
           "  // parseLatLng returns null for malformed strings.\n  const coords = note.location ? formatCoordinates(parseLatLng(note.location)) : null;",
           "  const coords =\n    note.latitude != null && note.longitude != null\n      ? formatCoordinates({ lat: note.latitude, lng: note.longitude })\n      : null;",
           at=22)
    s.bash("pnpm -r typecheck", "Typecheck again", """Scope: 4 of 5 workspace projects
packages/shared typecheck$ tsc --noEmit
packages/shared typecheck: Done
packages/db typecheck$ tsc --noEmit
packages/db typecheck: Done
apps/api typecheck$ tsc --noEmit
apps/api typecheck: Done
apps/web typecheck$ tsc --noEmit
apps/web typecheck: Done""", dur=(10, 25))
    s.say("Typecheck is clean now. Ready to commit: schema, migration, api (geo/sync/notes + test) and web NoteCard.")
    s.turn_end()
    s.user("ok commit it, and push the branch when it's in")
    s.bash("git add -A packages/db/prisma apps/api/src apps/web/src && git status --short", "Stage changes",
           """M  apps/api/src/lib/geo.ts
M  apps/api/src/routes/notes.ts
M  apps/api/src/routes/sync.test.ts
M  apps/api/src/routes/sync.ts
M  apps/web/src/components/NoteCard.tsx
M  packages/db/prisma/schema.prisma
A  packages/db/prisma/migrations/20261105092718_split_note_location/migration.sql""")
    s.mark("s2_hook_fail")
    s.bash("git commit -m \"feat(db): store note coordinates as latitude/longitude floats\"", "Commit", """✔ Preparing lint-staged...
❯ Running tasks for staged files...
  ❯ package.json — 6 files
    ❯ *.{ts,tsx} — 6 files
      ✖ eslint --max-warnings=0 [FAILED]
      ◼ prettier --check
↓ Skipped because of errors from tasks.
✔ Reverting to original state because of errors...
✔ Cleaning up temporary files...

✖ eslint --max-warnings=0:

/home/kim/work/fieldnotes/apps/web/src/components/NoteCard.tsx
  3:10  error  'parseLatLng' is defined but never used  @typescript-eslint/no-unused-vars
  3:1   error  '@/lib/geo' import is duplicated                import/no-duplicates

/home/kim/work/fieldnotes/apps/api/src/routes/notes.ts
  9:10  error  'parseNear' is defined but never used  @typescript-eslint/no-unused-vars

✖ 3 problems (3 errors, 0 warnings)

husky - pre-commit script failed (code 1)""", err=True)
    s.say("The pre-commit hook (lint-staged → eslint) rejected it: a leftover `parseLatLng` import in `NoteCard.tsx` "
          "(unused, and a duplicate `@/lib/geo` import) and the old `parseNear` prefix helper in `notes.ts` is now unused. "
          "tsc doesn't report unused code in this repo (no `noUnusedLocals`), which is why typecheck passed.")
    s.edit(CWD + "/apps/web/src/components/NoteCard.tsx",
           "import { formatCoordinates } from '@/lib/geo';\nimport type { Note } from '@fieldnotes/db';\nimport { parseLatLng } from '@/lib/geo';",
           "import type { Note } from '@fieldnotes/db';\nimport { formatCoordinates } from '@/lib/geo';", at=1)
    s.edit(CWD + "/apps/api/src/routes/notes.ts",
           "/** \"lat,lng\" prefix match, e.g. near=-33.86,151.2 -> \"-33.8\" */\nfunction parseNear(near: string) {\n  const [lat] = near.split(',');\n  return { prefix: lat.slice(0, lat.indexOf('.') + 2) };\n}\n",
           "", at=8)
    s.bash("pnpm exec eslint --max-warnings=0 apps/web/src/components/NoteCard.tsx apps/api/src/routes/sync.ts apps/api/src/routes/notes.ts apps/api/src/lib/geo.ts",
           "Lint the changed files", "")
    s.mark("s2_commit")
    s.bash("git add apps/web/src/components/NoteCard.tsx apps/api/src/routes/notes.ts && git commit -m \"feat(db): store note coordinates as latitude/longitude floats\"",
           "Commit again", """✔ Preparing lint-staged...
✔ Running tasks for staged files...
✔ Applying modifications from tasks...
✔ Cleaning up temporary files...
[feat/note-coordinates 8b41d07] feat(db): store note coordinates as latitude/longitude floats
 7 files changed, 58 insertions(+), 14 deletions(-)
 create mode 100644 packages/db/prisma/migrations/20261105092718_split_note_location/migration.sql""")
    s.bash("git push -u origin feat/note-coordinates", "Push branch", """remote: 
remote: Create a pull request for 'feat/note-coordinates' on GitHub by visiting:
remote:      https://github.com/kokafor/fieldnotes/pull/new/feat/note-coordinates
remote: 
To github.com:kokafor/fieldnotes.git
 * [new branch]      feat/note-coordinates -> feat/note-coordinates
branch 'feat/note-coordinates' set up to track 'origin/feat/note-coordinates'.""")
    s.say("Committed and pushed.")
    s.turn_end()
    s.user("nice. open the PR and mention the staging db needs the migration before deploy")
    s.bash("gh pr create --base main --head feat/note-coordinates --title \"feat(db): store note coordinates as latitude/longitude floats\" "
           "--body \"Fixes Sentry FIELDNOTES-API-3K (TypeError reading 'split' of null in parseLocation on POST /sync).\\n\\n"
           "- Note.location (\\\"lat,lng\\\" text) -> latitude/longitude Float? + index; migration 20261105092718_split_note_location backfills from the old string\\n"
           "- /notes?near= now uses a bounding box (gte/lte) instead of startsWith\\n"
           "- regression test for notes without a GPS fix\\n\\n"
           "**Deploy note:** run \\`pnpm --filter @fieldnotes/db exec prisma migrate deploy\\` against staging before deploying the api.\"",
           "Open the pull request", "https://github.com/kokafor/fieldnotes/pull/51")
    s.mark("s2_summary")
    s.say("PR #51 is open: https://github.com/kokafor/fieldnotes/pull/51\n\n"
          "What changed:\n"
          "- **Cause of the Sentry error**: notes saved before a GPS fix have no location; `sync.ts` called "
          "`parseLocation` on both branches of its ternary, so `null.split` threw on `POST /sync`.\n"
          "- **Schema**: `Note.location String?` replaced by `latitude Float?` / `longitude Float?` with an index "
          "(`packages/db/prisma/schema.prisma`). Migration `20261105092718_split_note_location` backfills from the old "
          "string: 212 of 247 dev notes got coordinates, 35 stay NULL.\n"
          "- **API**: `noteLatLng()` returns null instead of throwing; `/notes?near=` is now a real bounding-box query "
          "(`boundingBox()` in `apps/api/src/lib/geo.ts`). New regression test in `sync.test.ts`; api 38/38.\n"
          "- **Web**: `NoteCard` reads the two columns.\n"
          "- **Hook**: first commit was rejected by the eslint pre-commit hook (unused duplicate `parseLatLng` import in "
          "NoteCard, unused `parseNear` helper in notes.ts); fixed, and `8b41d07` landed on `feat/note-coordinates`.\n\n"
          "Staging needs `prisma migrate deploy` before the api is deployed (noted in the PR).")
    s.turn_end()
    return s
