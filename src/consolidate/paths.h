// Which store paths consolidation may read and write. The LLM worker's tools
// check every path the model sends through here, and the commit checks every
// path it writes.
#pragma once

#include <string>
#include <string_view>

#include "lore/doc/kind.h"
#include "lore/error.h"

namespace lore::consolidate {

enum class PathUse {
  kRead,    // also memory/workflow/<slug>.md
  kWrite,   // memory/summary.md, memory/decisions|requests/<slug>.md, knowledge/<slug>.md
  kCommit,  // same as kWrite
};

struct StorePath {
  doc::Kind kind = doc::Kind::kSummary;
  std::string slug;
  std::string rel;  // canonical, relative to the store
};

// Parses `path` (relative to the store). Errors (kInvalidInput) say why it
// is refused: empty, absolute, a ".." segment, not canonical, under
// memory/workflow/ for writing, a bad slug, or not a record path at all.
Result<StorePath> ParseStorePath(std::string_view path, PathUse use);

inline bool CheckStorePath(std::string_view path, PathUse use) {
  return ParseStorePath(path, use).has_value();
}

// True when `id` names a staged entry (a UUIDv7).
bool IsStagedId(std::string_view id);

}  // namespace lore::consolidate
