#!/usr/bin/env bash
# The whole loop on a demonstration repository created in a temporary folder:
# capture, propose, a non-interactive review, stage, consolidate with the
# rules engine, search, distill, the agents' view (hook and MCP), and the
# resulting files.  Nothing outside that folder is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scripts/install-deps.sh
scripts/build.sh release >/dev/null
LORE="$PWD/build/release/lore"

demo="$(mktemp -d -t lore-demo-XXXXXX)"
export LORE_HOME="$demo/lore-home"
unset LORE_WAVE XDG_CONFIG_HOME
repo="$demo/widgets"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
lore() { "$LORE" "$@"; }

# A checkout whose origin lore reads from .git/config (no git needed).
mkdir -p "$repo/.git" "$repo/src"
printf '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@github.com:acme/widgets.git\n' > "$repo/.git/config"
echo "ref: refs/heads/main" > "$repo/.git/HEAD"
cd "$repo"

# 1. Capture: review findings and slicing outcomes go to the permanent raw.jsonl.
step "lore append-review . <<< '{\"ticket\":\"WID-12\",\"finding\":\"cache key ignores the locale\",...}'"
lore append-review . <<'JSON'
{"ticket": "WID-12", "reviewer": "ann", "finding": "cache key ignores the locale", "severity": "major",
 "files": ["src/cache.cc"], "lesson": "include every input that changes the output in a cache key"}
JSON
lore append-review . <<'JSON'
{"ticket": "WID-14", "reviewer": "bob", "finding": "Cache key ignores the locale.", "severity": "minor",
 "files": ["src/cache.cc", "src/i18n.cc"]}
JSON
lore append-review . <<'JSON'
{"pr": 77, "findings": [{"title": "SQL built by string concatenation", "severity": "critical",
 "file": "src/db.cc", "fix": "use bound parameters"}, "missing test for empty input"]}
JSON
step "lore append-slicing . <<< '{\"ticket_id\":\"WID-13\",\"verdict\":\"split\",...}'"
lore append-slicing . <<'JSON'
{"ticket_id": "WID-13", "verbs": ["add", "migrate"], "traits": ["schema-change"], "depth": 2,
 "verdict": "split", "reason": "a schema migration and a UI change ship separately"}
JSON
lore append-slicing . <<'JSON'
{"ticket_id": "WID-15", "verbs": ["fix"], "traits": ["ui"], "depth": 1, "verdict": "keep",
 "reason": "one small change"}
JSON

# 2. Propose: an agent queues candidate learnings (a wave bounds how many).
step "LORE_WAVE=demo lore propose . --type anti-pattern --subject 'String-built SQL' ..."
LORE_WAVE=demo lore propose . --type anti-pattern --subject "String-built SQL" \
  --insight "never build SQL by concatenation; bind parameters" --evidence "PR 77 review" \
  --confidence 0.9 --file-paths src/db.cc
LORE_WAVE=demo lore propose . --type fragile-file --subject "src/cache.cc" \
  --insight "two cache-key findings in a week; review its keys twice" --evidence "WID-12, WID-14" \
  --confidence 0.75 --file-paths src/cache.cc
step "lore proposals ."
lore proposals .

# 3. Review, non-interactively: a person approves the queue.
step "lore review . --session demo-session --approve-all"
lore review . --session demo-session --approve-all

# 4. Stage what a session did, then consolidate it with the rules engine (no model).
step "lore stage . <<< '{\"source\":{\"session_id\":\"s1\",\"range\":[1,9]},\"decisions\":[...],...}'"
lore stage . <<'JSON'
{"source": {"session_id": "s1", "range": [1, 9]},
 "decisions": [{"options": ["SQLite", "Postgres"], "chosen": "SQLite", "rationale": "one file, no server, FTS5 ranking"}],
 "discussions": [{"topic": "Cache keys", "points": ["every input that changes the output", "locale included"]}],
 "attempts": [{"action": "memoize by URL only", "result": "wrong language served", "succeeded": false}],
 "requests": [{"intent": "Add dark mode", "target": "settings page", "summary": "users asked twice"}]}
JSON
lore stage . <<'JSON'
{"source": {"session_id": "s2", "range": [1, 4]},
 "decisions": [], "discussions": [], "attempts": [],
 "requests": [{"intent": "Keep the CLI fast", "summary": "hooks run it on every tool call"}]}
JSON
step "lore status ."
lore status .
step "lore consolidate . --flush --foreground --engine rules"
lore consolidate . --flush --foreground --engine rules

# 5. Search memory, knowledge, learnings and captures.
step "lore search . cache key locale"
lore search . cache key locale
step "lore search . sqlite --scope memory --json"
lore search . sqlite --scope memory --json

# 6. Distill the bundle agents read first.
step "lore distill ."
lore distill .

# 7. What an agent sees: the SessionStart hook and the MCP server.
step "echo '{\"cwd\":\"$repo\",\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}' | lore hook session-start"
printf '{"session_id":"demo","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$repo" | lore hook session-start
step "lore mcp  (initialize, then tools/call memory_search)"
printf '%s\n%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"dark mode"}}}' \
  | lore mcp | tail -n 1

# 8. Memory that fills itself: an agent's session transcript (a realistic one
#    shipped in tests/fixtures/), the PreCompact hook, then what the next
#    SessionStart after the compaction injects.
transcript="$demo/session.jsonl"
cp "$root/tests/fixtures/transcripts/plan.jsonl" "$transcript"
session=9a7e4410-22c3-4f0a-8d1e-77b3c2e9f002
step "lore extract . --transcript $transcript --dry-run   (what Phase 1 reads off the transcript)"
lore extract . --transcript "$transcript" --dry-run
step "echo '{\"session_id\":\"$session\",\"transcript_path\":\"$transcript\",...}' | lore hook pre-compact"
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"PreCompact","trigger":"auto"}' \
  "$session" "$transcript" "$repo" | lore hook pre-compact
step "(waiting for the detached extract and consolidation)"
store="$(dirname "$(dirname "$(lore pointer .)")")"
for _ in $(seq 1 300); do
  if [ -f "$store/extract/$session.json" ] && lore status . --json | grep -q '"staged":{"files":0' \
     && lore status . --json | grep -q '"running":null'; then break; fi
  sleep 0.1
done
lore status .
step "echo '{\"source\":\"compact\",...}' | lore hook session-start"
printf '{"session_id":"%s","cwd":"%s","hook_event_name":"SessionStart","source":"compact"}' "$session" "$repo" \
  | lore hook session-start
echo

# 9. The files.
store="$(dirname "$(dirname "$(lore pointer .)")")"
step "find $store -type f -not -name '.*' | sort"
(cd "$store" && find . -type f -not -name '.*' -not -name 'index.sqlite*' | sort)
for f in okf/index.md okf/gotchas.md okf/slicing-outcomes.md memory/summary.md; do
  step "cat $f"
  cat "$store/$f"
done

# 10. Carry it elsewhere.
step "lore export . -o $demo/widgets.lore.tar.gz"
lore export . -o "$demo/widgets.lore.tar.gz"
printf '\nThe demonstration store is in %s (remove it with: rm -rf %s)\n' "$store" "$demo"
