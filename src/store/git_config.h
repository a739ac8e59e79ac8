// Finding a git checkout and its origin URL by reading git's own files
// (.git, a "gitdir:" file, commondir, config) without spawning git.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::store {

struct Checkout {
  std::string top;         // the working tree's top-level directory (absolute)
  std::string common_dir;  // the directory holding `config`
  std::string git_dir;     // the working tree's own git directory (HEAD)
};

// Walks up from absolute `path` to the nearest directory holding `.git`
// (a directory, or a file "gitdir: <dir>" as in worktrees and submodules),
// following `commondir` to the shared git directory. nullopt when none.
std::optional<Checkout> FindCheckout(const std::string& path);

// The commit the checkout's HEAD names (40 or 64 hex digits), read from its
// files: HEAD, the loose ref it names, else packed-refs. Empty when there is
// none yet (a new repository) or it cannot be read.
std::string HeadCommit(const Checkout& checkout);

// The value of `key` (e.g. "url") in section `[section "subsection"]` of git
// config text; the last assignment wins, as in git. Handles comments, quoting,
// escapes and the old "[section.subsection]" form.
std::optional<std::string> GitConfigValue(std::string_view config, std::string_view section,
                                          std::string_view subsection, std::string_view key);

// The `origin` remote URL of a checkout, if it has one (none when the
// checkout has no config file). A config that cannot be read (a FIFO, over
// its cap, unreadable) is an error naming it: guessing "no origin" would file
// the repository's memory under another key.
Result<std::optional<std::string>> OriginUrl(const Checkout& checkout);

}  // namespace lore::store
