#!/usr/bin/env bash
# lore installed as a user installs it (docs/install.md):
#   cmake --install into a temporary prefix, then the programs, the man page, the completions and
#   the Claude Code hooks run from there, with nothing of the build folder on PATH;
#   the packages cpack makes: the .deb's control fields and files, the tarball unpacked and run;
#   with --dpkg (CI, as root): the .deb installed with dpkg -i, `lore --version` and `man lore`
#   from /usr, then removed, leaving nothing behind.
# Usage: tests/install/install_test.sh <release build folder> [--dpkg]
set -euo pipefail

build=$(cd "$1" && pwd)
dpkg_install=0
[ "${2:-}" = "--dpkg" ] && dpkg_install=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "install_test: FAIL: $*" >&2; fails=$((fails + 1)); }
check() {  # check <what> <command...>: the command must succeed
  local what=$1; shift
  "$@" >/dev/null 2>&1 || fail "$what (ran: $*)"
}
version_re='^lore [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}|unknown)\)$'

# --- cmake --install into a prefix ---------------------------------------------------------
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/lore bin/lore-llm bin/lore-team bin/lore-archive share/man/man1/lore.1.gz \
         share/bash-completion/completions/lore share/zsh/vendor-completions/_lore \
         share/lore/claude-code/commands/lore-review.md share/lore/claude-code/hooks/hooks.json \
         share/lore/claude-code/.claude-plugin/plugin.json share/lore/.claude-plugin/marketplace.json \
         share/doc/lore/README.md; do
  [ -e "$prefix/$f" ] || fail "cmake --install put no $f"
done
clean_path="$prefix/bin:/usr/bin:/bin"
export HOME=$tmp/home LORE_HOME=$tmp/stores LANG=C.UTF-8
mkdir -p "$HOME"
v=$(PATH=$clean_path lore --version)
[[ $v =~ $version_re ]] || fail "lore --version printed '$v'"
for p in lore-llm lore-team lore-archive lore-serve; do
  pv=$(PATH=$clean_path "$p" --version)
  [[ $pv == "$p "* ]] || fail "$p --version printed '$pv'"
done
# A verb run by a program beside lore, found from the installed lore.
PATH=$clean_path lore export --help | grep -q "tar.gz" || fail "lore export --help (lore-archive beside lore)"

# --- the man page --------------------------------------------------------------------------
if command -v man >/dev/null; then
  page=$(MANPATH=$prefix/share/man MANWIDTH=200 man -P cat lore 2>/dev/null || true)
  for verb in "lore memory stats" "lore hook user-prompt-submit" "lore init" "lore search"; do
    grep -qF "$verb" <<<"$page" || fail "man lore lacks '$verb'"
  done
  warnings=$(man --warnings -l "$prefix/share/man/man1/lore.1.gz" 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || fail "man --warnings: $warnings"
else
  fail "man is not installed (scripts/install-deps.sh installs man-db)"
fi

# --- the completions -----------------------------------------------------------------------
complete_bash() {  # complete_bash <word>...: what bash offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lore
           printf "%s\n" "${COMPREPLY[@]}"' sh "$prefix/share/bash-completion/completions/lore" "$@"
}
check "the bash completion parses" bash -n "$prefix/share/bash-completion/completions/lore"
complete_bash lore mem | grep -qx memory || fail "bash: 'lore mem' does not offer memory"
complete_bash lore memory st | grep -qx stats || fail "bash: 'lore memory st' does not offer stats"
complete_bash lore memory stats --j | grep -qx -- --json || fail "bash: 'lore memory stats --j' does not offer --json"
complete_bash lore hook user | grep -qx user-prompt-submit || fail "bash: 'lore hook user' does not offer user-prompt-submit"
if command -v zsh >/dev/null; then
  check "the zsh completion parses" zsh -n "$prefix/share/zsh/vendor-completions/_lore"
else
  fail "zsh is not installed (scripts/install-deps.sh installs it)"
fi

# --- the plugin marketplace under share/lore, read by the real client when it is installed -
claude_cli=$(cd "$(dirname "$0")/../claude" && pwd)/node_modules/.bin/claude
if [ -x "$claude_cli" ]; then
  HOME=$tmp/home "$claude_cli" plugin validate --strict "$prefix/share/lore" >"$tmp/validate.log" 2>&1 ||
    fail "claude plugin validate --strict $prefix/share/lore: $(tail -5 "$tmp/validate.log")"
  HOME=$tmp/home "$claude_cli" plugin validate --strict "$prefix/share/lore/claude-code" >"$tmp/validate.log" 2>&1 ||
    fail "claude plugin validate --strict $prefix/share/lore/claude-code: $(tail -5 "$tmp/validate.log")"
fi

# --- the Claude Code hooks run from the prefix ---------------------------------------------
co=$tmp/checkout
git init -q "$co"
git -C "$co" remote add origin https://example.org/install/test.git
(cd "$co" && PATH=$clean_path lore init claude-code --project "$co" >/dev/null) ||
  fail "lore init claude-code from the prefix"
settings=$co/.claude/settings.json
[ -f "$settings" ] || fail "lore init wrote no $settings"
if [ -f "$settings" ]; then
  payload="{\"session_id\":\"s1\",\"cwd\":\"$co\",\"transcript_path\":\"$tmp/none.jsonl\",\"prompt\":\"hello\",\"hook_event_name\":\"X\"}"
  n=0
  while IFS= read -r cmd; do
    n=$((n + 1))
    out=$(cd "$co" && PATH=$clean_path sh -c "$cmd" <<<"$payload" 2>&1) ||
      fail "hook '$cmd' failed from the prefix: $out"
  done < <(node -e 'const s = require(process.argv[1]);
    for (const ev of Object.values(s.hooks || {}))
      for (const m of ev) for (const h of m.hooks) console.log(h.command);' "$settings")
  [ "$n" -ge 5 ] || fail "lore init wrote $n hook commands"
fi
PATH=$clean_path lore init --check --project "$co" >/dev/null 2>&1 || fail "lore init --check after init"

# --- the packages ---------------------------------------------------------------------------
(cd "$build" && cpack -G "DEB;TGZ" >"$tmp/cpack.log" 2>&1) || fail "cpack: $(tail -5 "$tmp/cpack.log")"
version=$(sed -n 's/^project(lore VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../../CMakeLists.txt")
deb=$build/packages/lore_${version}_amd64.deb
tgz=$(ls "$build"/packages/lore-"$version"-linux-*.tar.gz 2>/dev/null | head -1)
if [ -f "$deb" ]; then
  depends=$(dpkg-deb -f "$deb" Depends)
  for lib in libcurl4 libpq5 libarchive13 libc6; do
    grep -q "$lib" <<<"$depends" || fail "the .deb does not depend on $lib: $depends"
  done
  recommends=$(dpkg-deb -f "$deb" Recommends)
  grep -q "bash-completion" <<<"$recommends" || fail "the .deb does not recommend bash-completion: $recommends"
  listing=$(dpkg-deb -c "$deb")
  for f in ./usr/bin/lore ./usr/bin/lore-llm ./usr/bin/lore-team ./usr/bin/lore-archive ./usr/bin/lore-serve \
           ./usr/share/man/man1/lore.1.gz ./usr/share/bash-completion/completions/lore; do
    grep -q " $f\$" <<<"$listing" || fail "the .deb lacks $f"
  done
else
  fail "cpack made no $deb"
fi
if [ -n "$tgz" ]; then
  mkdir "$tmp/unpacked"
  tar -xzf "$tgz" -C "$tmp/unpacked"
  top=$(ls "$tmp/unpacked")
  for p in lore lore-llm lore-team lore-archive; do
    [ -x "$tmp/unpacked/$top/bin/$p" ] || fail "the tarball lacks bin/$p"
  done
  tv=$(PATH=/usr/bin:/bin "$tmp/unpacked/$top/bin/lore" --version)
  [[ $tv =~ $version_re ]] || fail "the tarball's lore --version printed '$tv'"
else
  fail "cpack made no tarball"
fi

# --- dpkg -i, run, dpkg -r --------------------------------------------------------------------
if [ "$dpkg_install" = 1 ] && [ -f "$deb" ]; then
  if dpkg -s lore >/dev/null 2>&1; then
    fail "a lore package is installed already; remove it first (dpkg -r lore)"
  else
    dpkg -i "$deb" >/dev/null || fail "dpkg -i $deb"
    dv=$(PATH=/usr/bin:/bin lore --version)
    [[ $dv =~ $version_re ]] || fail "lore --version after dpkg -i printed '$dv'"
    [ "$(man -w lore 2>/dev/null)" = /usr/share/man/man1/lore.1.gz ] || fail "man -w lore after dpkg -i"
    MANWIDTH=200 man -P cat lore 2>/dev/null | grep -q "lore memory stats" || fail "man lore after dpkg -i"
    dpkg -r lore >/dev/null || fail "dpkg -r lore"
    for f in /usr/bin/lore /usr/bin/lore-llm /usr/share/man/man1/lore.1.gz /usr/share/lore; do
      [ ! -e "$f" ] || fail "dpkg -r left $f"
    done
    ! dpkg -s lore >/dev/null 2>&1 || fail "dpkg -s lore after dpkg -r"
  fi
fi

if [ "$fails" -gt 0 ]; then
  echo "install_test: $fails failure(s)" >&2
  exit 1
fi
echo "install_test: ok (prefix, man page, completions, hooks, .deb, tarball$([ "$dpkg_install" = 1 ] && echo ', dpkg -i and -r'))"
