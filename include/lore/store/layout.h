// The names of a store's files, relative to its folder (docs/formats.md): the
// one place they are written. Where a store::Store is at hand, use its
// accessors (config_path(), learnings_path(), ...); these names serve code
// that has only a folder.
#pragma once

#include <string_view>
#include "lore/store/layout.h"

namespace lore::store {

inline constexpr std::string_view kConfigFile = "config.toml";
inline constexpr std::string_view kRawFile = "raw.jsonl";
inline constexpr std::string_view kLearningsFile = "learnings.jsonl";
inline constexpr std::string_view kLearningsArchiveFile = "learnings-archive.jsonl";
inline constexpr std::string_view kProposalsFile = "proposals.jsonl";
inline constexpr std::string_view kProposalsArchiveFile = "proposals-archive.jsonl";
inline constexpr std::string_view kProposalsRejectedFile = "proposals.rejected.jsonl";
inline constexpr std::string_view kEventsFile = "events.jsonl";
inline constexpr std::string_view kOkfDir = "okf";
inline constexpr std::string_view kIndexFile = "okf/index.md";
inline constexpr std::string_view kSummaryFile = "memory/summary.md";

}  // namespace lore::store
