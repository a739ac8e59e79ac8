#!/usr/bin/env bash
# Installs lore's build and test dependencies from Debian's packages.
# Idempotent: prints nothing and does nothing when everything is present.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  libexpected-dev nlohmann-json3-dev libyaml-cpp-dev libcli11-dev
  libsqlite3-dev libstemmer-dev libtomlplusplus-dev libcurl4-openssl-dev libarchive-dev
  googletest libgtest-dev libgmock-dev
  tmux
  man-db zsh dpkg-dev  # tests/install: man lore, the zsh completion, cpack's dpkg-shlibdeps
  wordnet-base  # lore search's synonym table is generated from its data at build time
  libpq-dev postgresql-15  # lore-team and its throwaway test cluster (docs/team.md)
  clang libclang-rt-14-dev llvm  # scripts/fuzz.sh: libFuzzer, sanitizers, llvm-symbolizer
  clang-format  # ctest format: the sources as .clang-format leaves them
  libcpp-httplib-dev  # lore-serve, the local web page (docs/serve.md)
  libmd4c-html0-dev  # lore-serve: the page's Markdown rendered to HTML, raw HTML escaped
  libmd4c-dev  # md4c.h and md4c.pc, which md4c-html's header and .pc require; not a dependency of it
  chromium  # tests/serve: the page in a real browser, headless
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm (for the MCP SDK test client) may come from another package
# that bundles npm; only ask Debian for them when the commands are missing.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
