from datetime import datetime, timezone
from lib_transcript import Session

CWD = "/home/kim/work/fieldnotes"


def build():
    s = Session(101, datetime(2026, 11, 3, 8, 41, 12, 304000, tzinfo=timezone.utc), CWD, "main")
    s.mark("s1_start")
    s.user("hey, picking fieldnotes back up after a couple weeks off. can you get your bearings in the repo first, "
           "then figure out why the api tests are red on my machine? `pnpm --filter @fieldnotes/api test` fails for me")
    s.say("I'll start by looking at the workspace layout and the project conventions.")
    s.mark("s1_manifest")
    s.bash("cat package.json pnpm-workspace.yaml", "Show root manifest and workspace config", """{
  "name": "fieldnotes",
  "private": true,
  "version": "0.4.0",
  "description": "Offline-first note-taking for field researchers: geotagged observations, photos and sketches, synced when back in range",
  "packageManager": "pnpm@9.12.3",
  "engines": {
    "node": ">=20.11"
  },
  "scripts": {
    "dev": "pnpm -r --parallel dev",
    "build": "pnpm -r build",
    "test": "pnpm -r test",
    "typecheck": "pnpm -r typecheck",
    "lint": "eslint . --max-warnings=0",
    "db:migrate": "pnpm --filter @fieldnotes/db migrate",
    "prepare": "husky"
  },
  "devDependencies": {
    "@typescript-eslint/eslint-plugin": "^8.13.0",
    "@typescript-eslint/parser": "^8.13.0",
    "eslint": "^9.14.0",
    "eslint-plugin-import": "^2.31.0",
    "husky": "^9.1.6",
    "lint-staged": "^15.2.10",
    "prettier": "^3.3.3",
    "typescript": "^5.6.3",
    "vitest": "^2.1.4"
  },
  "lint-staged": {
    "*.{ts,tsx}": [
      "eslint --max-warnings=0",
      "prettier --check"
    ]
  }
}
packages:
  - "apps/*"
  - "packages/*\"""")
    s.mark("s1_claude_md")
    s.read(CWD + "/CLAUDE.md", """# fieldnotes: notes for AI assistants and new contributors

fieldnotes is a note-taking app for field researchers (ecologists, geologists, archaeologists).
Notes are written offline on a phone or laptop in the field and synced to the API when back in range.

## Layout
- `apps/web`: Next.js 15 (app router) client, PWA with offline queue
- `apps/api`: Fastify 5 REST API (`/notes`, `/sites`, `/sync`)
- `packages/db`: Prisma schema + client (SQLite in dev and on the single Fly machine)
- `packages/shared`: zod schemas and types shared by web and api

## Conventions
- Use pnpm, never npm (or npx). Lockfile is `pnpm-lock.yaml`; an npm lockfile must never be committed.
- Run `pnpm -r typecheck` before committing. The pre-commit hook only lints staged files, it does not typecheck.
- Tests: vitest, next to the code (`*.test.ts`).
- Commit messages: conventional commits (`fix(api): ...`, `feat(db): ...`).
- Migrations: `pnpm --filter @fieldnotes/db exec prisma migrate dev --name <name>`; never edit an applied migration.

## Gotchas
- Coordinates are WGS84 decimal degrees; south and west are negative.
- `apps/api` reads `DATABASE_URL` from `.env` at the repo root.""")
    s.bash("ls apps packages && git status -sb && git log --oneline -8", "List workspace packages and recent history",
           """apps:
api
web

packages:
db
shared
## main...origin/main
e91b7c2 refactor(api): simplify formatCoordinates
5d03a18 feat(web): show site name in note header
a7f4410 chore: bump vitest to 2.1.4
c2280e9 feat(api): GET /sites/:id/notes with pagination
0b6d3f1 fix(web): offline queue retries after 401
93ee5a2 feat(shared): zod schema for Site
41c9d07 chore(db): seed script for demo sites
f0d2a6e feat(api): notes CRUD""")
    s.say("Now the failing test run.")
    s.mark("s1_fail")
    s.bash("pnpm --filter @fieldnotes/api test", "Run api tests", """
> @fieldnotes/api@0.4.0 test /home/kim/work/fieldnotes/apps/api
> vitest run


 RUN  v2.1.4 /home/kim/work/fieldnotes/apps/api

 ✓ src/routes/sites.test.ts (7 tests) 61ms
 ✓ src/routes/notes.test.ts (12 tests) 118ms
 ❯ src/lib/geo.test.ts (6 tests | 2 failed) 9ms
   × formatCoordinates > formats southern and western hemispheres 4ms
     → expected '-33.8688° N, -70.6693° E' to be '33.8688° S, 70.6693° W' // Object.is equality
   × formatCoordinates > formats a point just south of the equator 1ms
     → expected '-0.2295° N, -78.5243° E' to be '0.2295° S, 78.5243° W' // Object.is equality
 ✓ src/lib/sync.test.ts (9 tests) 22ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/lib/geo.test.ts > formatCoordinates > formats southern and western hemispheres
AssertionError: expected '-33.8688° N, -70.6693° E' to be '33.8688° S, 70.6693° W' // Object.is equality

- Expected
+ Received

- 33.8688° S, 70.6693° W
+ -33.8688° N, -70.6693° E

 ❯ src/lib/geo.test.ts:21:7
     19|   it('formats southern and western hemispheres', () => {
     20|     expect(formatCoordinates({ lat: -33.8688, lng: -70.6693 }))
     21|       .toBe('33.8688° S, 70.6693° W');
       |       ^
     22|   });
     23| 

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  src/lib/geo.test.ts > formatCoordinates > formats a point just south of the equator
AssertionError: expected '-0.2295° N, -78.5243° E' to be '0.2295° S, 78.5243° W' // Object.is equality

 ❯ src/lib/geo.test.ts:27:7

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯

 Test Files  1 failed | 3 passed (4)
      Tests  2 failed | 32 passed (34)
   Start at  09:43:02
   Duration  1.21s (transform 212ms, setup 0ms, collect 540ms, tests 210ms, environment 1ms, prepare 388ms)

/home/kim/work/fieldnotes/apps/api:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @fieldnotes/api@0.4.0 test: `vitest run`
Exit status 1""", err=True)
    s.read(CWD + "/apps/api/src/lib/geo.test.ts", """import { describe, it, expect } from 'vitest';
import { formatCoordinates } from './geo';

describe('formatCoordinates', () => {
  it('formats northern and eastern hemispheres', () => {
    expect(formatCoordinates({ lat: 52.52, lng: 13.405 })).toBe('52.52° N, 13.405° E');
  });

  it('trims trailing zeros', () => {
    expect(formatCoordinates({ lat: 10.5, lng: 20 })).toBe('10.5° N, 20° E');
  });

  it('rounds to 4 decimal places', () => {
    expect(formatCoordinates({ lat: 12.345678, lng: 1.23456 })).toBe('12.3457° N, 1.2346° E');
  });

  it('formats southern and western hemispheres', () => {
    expect(formatCoordinates({ lat: -33.8688, lng: -70.6693 }))
      .toBe('33.8688° S, 70.6693° W');
  });

  it('formats a point just south of the equator', () => {
    expect(formatCoordinates({ lat: -0.2295, lng: -78.5243 }))
      .toBe('0.2295° S, 78.5243° W');
  });
});""")
    s.say("Both failures are in `formatCoordinates`: negative latitudes/longitudes come out with a minus sign and "
          "still labelled N/E. The most recent commit is \"refactor(api): simplify formatCoordinates\", so let me look at it.")
    s.bash("git show e91b7c2 -- apps/api/src/lib/geo.ts", "Show the refactor commit diff for geo.ts",
           """commit e91b7c2a4f0d8e13b6c95a0f7d2e41b8c3a9f6d0
Author: Kim Okafor <kim@fieldnotes.dev>
Date:   Thu Oct 15 17:22:09 2026 +0200

    refactor(api): simplify formatCoordinates

diff --git a/apps/api/src/lib/geo.ts b/apps/api/src/lib/geo.ts
index 3b1e0a2..9c4d7f1 100644
--- a/apps/api/src/lib/geo.ts
+++ b/apps/api/src/lib/geo.ts
@@ -8,14 +8,10 @@ export interface LatLng {
 
 const fmt = (n: number) => n.toFixed(4).replace(/\\.?0+$/, '');
 
 export function formatCoordinates({ lat, lng }: LatLng): string {
-  const ns = lat < 0 ? 'S' : 'N';
-  const ew = lng < 0 ? 'W' : 'E';
-  return `${fmt(Math.abs(lat))}° ${ns}, ${fmt(Math.abs(lng))}° ${ew}`;
+  return `${fmt(lat)}° N, ${fmt(lng)}° E`;
 }""")
    s.say("That's the regression: the refactor dropped the hemisphere logic and the `Math.abs`, so every coordinate "
          "is printed as N/E with the raw sign. Let me read the current file before fixing it.")
    s.mark("s1_geo")
    s.read(CWD + "/apps/api/src/lib/geo.ts", """import type { Note } from '@fieldnotes/db';

export interface LatLng {
  lat: number;
  lng: number;
}

const fmt = (n: number) => n.toFixed(4).replace(/\\.?0+$/, '');

export function formatCoordinates({ lat, lng }: LatLng): string {
  return `${fmt(lat)}° N, ${fmt(lng)}° E`;
}

/** Notes store location as "lat,lng" (see packages/db schema). */
export function parseLocation(note: Pick<Note, 'location'>): LatLng {
  const [lat, lng] = note.location.split(',').map(Number);
  return { lat, lng };
}""")
    s.edit(CWD + "/apps/api/src/lib/geo.ts",
           "export function formatCoordinates({ lat, lng }: LatLng): string {\n  return `${fmt(lat)}° N, ${fmt(lng)}° E`;\n}",
           "export function formatCoordinates({ lat, lng }: LatLng): string {\n  // south and west are negative in WGS84; print the magnitude with the hemisphere letter\n  const ns = lat < 0 ? 'S' : 'N';\n  const ew = lng < 0 ? 'W' : 'E';\n  return `${fmt(Math.abs(lat))}° ${ns}, ${fmt(Math.abs(lng))}° ${ew}`;\n}",
           at=10)
    s.grep("formatCoordinates", CWD, """apps/api/src/lib/geo.ts:10:export function formatCoordinates({ lat, lng }: LatLng): string {
apps/api/src/lib/geo.test.ts:2:import { formatCoordinates } from './geo';
apps/api/src/routes/notes.ts:5:import { formatCoordinates } from '../lib/geo';
apps/api/src/routes/notes.ts:48:      locationLabel: note.location ? formatCoordinates(parseLocation(note)) : null,
apps/web/src/lib/geo.ts:4:export function formatCoordinates({ lat, lng }: LatLng): string {
apps/web/src/components/NoteCard.tsx:1:import { formatCoordinates } from '@/lib/geo';""")
    s.read(CWD + "/apps/web/src/lib/geo.ts", """import type { LatLng } from '@fieldnotes/shared';

// keep in sync with apps/api/src/lib/geo.ts
export function formatCoordinates({ lat, lng }: LatLng): string {
  const ns = lat < 0 ? 'S' : 'N';
  const ew = lng < 0 ? 'W' : 'E';
  return `${Math.abs(lat).toFixed(4).replace(/\\.?0+$/, '')}° ${ns}, ${Math.abs(lng).toFixed(4).replace(/\\.?0+$/, '')}° ${ew}`;
}""")
    s.say("The web app has its own copy in `apps/web/src/lib/geo.ts`, which still has the hemisphere logic, so only "
          "the api copy regressed (the api uses it for `locationLabel` in `/notes`). Restored the hemisphere letters. Running the whole workspace's tests to make sure nothing else depends on "
          "the broken output.")
    s.mark("s1_pass")
    s.bash("pnpm -r test", "Run all workspace tests", """Scope: 4 of 5 workspace projects
packages/shared test$ vitest run
packages/shared test:  RUN  v2.1.4 /home/kim/work/fieldnotes/packages/shared
packages/shared test:  ✓ src/schemas.test.ts (14 tests) 31ms
packages/shared test:  Test Files  1 passed (1)
packages/shared test:       Tests  14 passed (14)
packages/shared test: Done
packages/db test$ vitest run
packages/db test:  RUN  v2.1.4 /home/kim/work/fieldnotes/packages/db
packages/db test:  ✓ src/seed.test.ts (3 tests) 204ms
packages/db test:  Test Files  1 passed (1)
packages/db test:       Tests  3 passed (3)
packages/db test: Done
apps/api test$ vitest run
apps/api test:  RUN  v2.1.4 /home/kim/work/fieldnotes/apps/api
apps/api test:  ✓ src/lib/geo.test.ts (6 tests) 5ms
apps/api test:  ✓ src/lib/sync.test.ts (9 tests) 20ms
apps/api test:  ✓ src/routes/sites.test.ts (7 tests) 58ms
apps/api test:  ✓ src/routes/notes.test.ts (12 tests) 121ms
apps/api test:  Test Files  4 passed (4)
apps/api test:       Tests  34 passed (34)
apps/api test: Done
apps/web test$ vitest run
apps/web test:  RUN  v2.1.4 /home/kim/work/fieldnotes/apps/web
apps/web test:  ✓ src/lib/offlineQueue.test.ts (11 tests) 44ms
apps/web test:  ✓ src/components/NoteCard.test.tsx (5 tests) 97ms
apps/web test:  Test Files  2 passed (2)
apps/web test:       Tests  16 passed (16)
apps/web test: Done""")
    s.say("All green: 34/34 in the api, and shared, db and web pass too. Per CLAUDE.md I'll typecheck before committing.")
    s.bash("pnpm -r typecheck", "Typecheck all workspace packages", """Scope: 4 of 5 workspace projects
packages/shared typecheck$ tsc --noEmit
packages/shared typecheck: Done
packages/db typecheck$ tsc --noEmit
packages/db typecheck: Done
apps/api typecheck$ tsc --noEmit
apps/api typecheck: Done
apps/web typecheck$ tsc --noEmit
apps/web typecheck: Done""", dur=(8, 20))
    s.say("Typecheck is clean. The fix is ready to commit: one file, `apps/api/src/lib/geo.ts`. Want me to commit it "
          "on main, or on a branch?")
    s.turn_end()
    s.mark("s1_convention")
    s.user("branch please. never commit or push to main directly, everything goes through a PR even small fixes. "
           "and yeah always do the typecheck before a commit like you just did, the hook doesn't catch type errors")
    s.say("Understood: branches and PRs only, and `pnpm -r typecheck` before every commit.")
    s.bash("git diff --stat && git diff", "Review the change", """ apps/api/src/lib/geo.ts | 5 ++++-
 1 file changed, 4 insertions(+), 1 deletion(-)
diff --git a/apps/api/src/lib/geo.ts b/apps/api/src/lib/geo.ts
index 9c4d7f1..2e8b6a0 100644
--- a/apps/api/src/lib/geo.ts
+++ b/apps/api/src/lib/geo.ts
@@ -8,7 +8,10 @@ export interface LatLng {
 const fmt = (n: number) => n.toFixed(4).replace(/\\.?0+$/, '');
 
 export function formatCoordinates({ lat, lng }: LatLng): string {
-  return `${fmt(lat)}° N, ${fmt(lng)}° E`;
+  // south and west are negative in WGS84; print the magnitude with the hemisphere letter
+  const ns = lat < 0 ? 'S' : 'N';
+  const ew = lng < 0 ? 'W' : 'E';
+  return `${fmt(Math.abs(lat))}° ${ns}, ${fmt(Math.abs(lng))}° ${ew}`;
 }""")
    s.mark("s1_commit")
    s.bash("git switch -c fix/geo-hemisphere && git add apps/api/src/lib/geo.ts && git commit -m \"fix(api): restore hemisphere letters in formatCoordinates\"",
           "Create branch and commit the fix", """Switched to a new branch 'fix/geo-hemisphere'
✔ Preparing lint-staged...
✔ Running tasks for staged files...
✔ Applying modifications from tasks...
✔ Cleaning up temporary files...
[fix/geo-hemisphere 3f9c2e1] fix(api): restore hemisphere letters in formatCoordinates
 1 file changed, 4 insertions(+), 1 deletion(-)""")
    s.branch = "fix/geo-hemisphere"
    s.bash("git push -u origin fix/geo-hemisphere", "Push the branch", """remote: 
remote: Create a pull request for 'fix/geo-hemisphere' on GitHub by visiting:
remote:      https://github.com/kokafor/fieldnotes/pull/new/fix/geo-hemisphere
remote: 
To github.com:kokafor/fieldnotes.git
 * [new branch]      fix/geo-hemisphere -> fix/geo-hemisphere
branch 'fix/geo-hemisphere' set up to track 'origin/fix/geo-hemisphere'.""")
    s.say("Pushed. While reading `geo.ts` I noticed one more thing worth flagging: `parseLocation` calls "
          "`note.location.split(',')` without a null check, and `location` is `String?` in the Prisma schema, so a note "
          "saved without a location would throw there. I haven't changed it since it's outside this fix.")
    s.turn_end()
    s.user("good catch, leave it for now. can you open the PR with gh?")
    s.bash("gh pr create --base main --head fix/geo-hemisphere --title \"fix(api): restore hemisphere letters in formatCoordinates\" "
           "--body \"e91b7c2 dropped the N/S E/W selection and Math.abs, so southern/western coordinates rendered as e.g. '-33.8688° N'. "
           "Restores the old behaviour; geo.test.ts passes again (pnpm -r test: all green).\"",
           "Open a pull request", "https://github.com/kokafor/fieldnotes/pull/48")
    s.say("PR #48 is open.")
    s.turn_end()
    s.user("one more thing, I deleted my dev db last week while debugging sync. can you get it back to a migrated + seeded state?")
    s.bash("cat packages/db/package.json", "Show db package scripts", """{
  "name": "@fieldnotes/db",
  "version": "0.4.0",
  "private": true,
  "type": "module",
  "main": "dist/index.js",
  "types": "dist/index.d.ts",
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "migrate": "prisma migrate dev",
    "seed": "tsx prisma/seed.ts",
    "studio": "prisma studio",
    "test": "vitest run",
    "typecheck": "tsc --noEmit"
  },
  "prisma": {
    "seed": "tsx prisma/seed.ts"
  },
  "dependencies": {
    "@prisma/client": "^5.22.0"
  },
  "devDependencies": {
    "prisma": "^5.22.0",
    "tsx": "^4.19.2"
  }
}""")
    s.bash("pnpm --filter @fieldnotes/db exec prisma migrate status", "Check migration status", """Environment variables loaded from ../../.env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": SQLite database "dev.db" at "file:./dev.db"

8 migrations found in prisma/migrations

Following migrations have not yet been applied:
20260612101500_init
20260614083000_sites
20260702151200_note_observed_at
20260719090000_site_region
20260801113000_note_site_index
20260903164500_note_body_text
20260921120000_site_created_at
20261002094500_note_location

To apply migrations in development run prisma migrate dev.
To apply migrations in production run prisma migrate deploy.""", err=True)
    s.say("The database file is empty, so all 8 migrations are pending. `migrate dev` applies them and runs the seed script configured in `package.json`.")
    s.bash("pnpm db:migrate", "Apply migrations and seed via the root script", """
> fieldnotes@0.4.0 db:migrate /home/kim/work/fieldnotes
> pnpm --filter @fieldnotes/db migrate


> @fieldnotes/db@0.4.0 migrate /home/kim/work/fieldnotes/packages/db
> prisma migrate dev

Environment variables loaded from ../../.env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": SQLite database "dev.db" at "file:./dev.db"

Applying migration `20260612101500_init`
Applying migration `20260614083000_sites`
Applying migration `20260702151200_note_observed_at`
Applying migration `20260719090000_site_region`
Applying migration `20260801113000_note_site_index`
Applying migration `20260903164500_note_body_text`
Applying migration `20260921120000_site_created_at`
Applying migration `20261002094500_note_location`

Your database is now in sync with your schema.

✔ Generated Prisma Client (v5.22.0) to ./../../node_modules/.pnpm/@prisma+client@5.22.0_prisma@5.22.0/node_modules/@prisma/client in 84ms

Running seed command `tsx prisma/seed.ts` ...
Seeded 6 sites, 247 notes (35 without location)

🌱  The seed command has been executed.""", dur=(6, 14))
    s.mark("s1_summary")
    s.say("Done. Summary:\n\n"
          "- **Cause**: commit `e91b7c2` (\"refactor(api): simplify formatCoordinates\") removed the hemisphere logic, so "
          "`formatCoordinates` printed negative coordinates as `-33.8688° N, -70.6693° E`; two tests in "
          "`apps/api/src/lib/geo.test.ts` failed.\n"
          "- **Fix**: restored `Math.abs` + S/W selection in `apps/api/src/lib/geo.ts`. `pnpm -r test` passes "
          "(api 34/34, web 16, shared 14, db 3) and `pnpm -r typecheck` is clean.\n"
          "- **Commit**: `3f9c2e1` on branch `fix/geo-hemisphere`, PR #48 open against main.\n"
          "- **Dev db**: re-created with `pnpm db:migrate` (8 migrations, seed: 6 sites, 247 notes, 35 of them without location).\n"
          "- **Not done**: `parseLocation` in the same file crashes on notes without a location (`location` is nullable).")
    s.turn_end()
    return s
