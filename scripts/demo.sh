#!/usr/bin/env bash
# Installs what lore needs, builds it, and runs its main job on a demonstration
# repository created in a temporary folder.  Nothing outside that folder is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release >/dev/null
LORE="$PWD/build/release/lore"

demo="$(mktemp -d -t lore-demo-XXXXXX)"
export LORE_HOME="$demo/lore-home"
repo="$demo/widgets"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

# A checkout whose origin lore reads from .git/config (no git needed).
mkdir -p "$repo/.git" "$repo/src"
printf '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@github.com:acme/widgets.git\n' > "$repo/.git/config"
echo "ref: refs/heads/main" > "$repo/.git/HEAD"
cd "$repo"

step lore ensure .
"$LORE" ensure .

step "lore append-review . <<< '{\"ticket\":\"WID-12\",\"finding\":\"cache key ignores locale\",...}'"
"$LORE" append-review . <<'JSON'
{"ticket": "WID-12", "reviewer": "ann", "finding": "cache key ignores the locale", "severity": "major",
 "files": ["src/cache.cc"], "lesson": "include every input that changes the output in a cache key"}
JSON

step "lore append-slicing . <<< '{\"ticket_id\":\"WID-13\",...}'"
"$LORE" append-slicing . <<'JSON'
{"ticket_id": "WID-13", "verbs": ["add", "migrate"], "traits": ["schema-change"], "depth": 2,
 "verdict": "split", "reason": "a schema migration and a UI change ship separately"}
JSON

step lore pointer .
"$LORE" pointer .

step lore check .
"$LORE" check .

store="$(dirname "$(dirname "$("$LORE" pointer .)")")"
step "find $store -type f"
(cd "$store" && find . -type f -not -name '.lore-*' | sort)
step "cat raw.jsonl"
cat "$store/raw.jsonl"
step "cat okf/index.md"
cat "$store/okf/index.md"
printf '\nThe demonstration store is in %s (remove it with: rm -rf %s)\n' "$store" "$demo"
