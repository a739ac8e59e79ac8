// The staging folder: `staging/<uuidv7>.json` files awaiting consolidation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lore/consolidate/settings.h"
#include "lore/consolidate/staged_entry.h"
#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::consolidate {

// "staging" and the run-time files inside it.
inline constexpr std::string_view kStagingDir = "staging";
inline constexpr std::string_view kLockName = ".consolidation.lock";
inline constexpr std::string_view kStateName = ".consolidation.state.json";
inline constexpr std::string_view kJournalName = ".consolidation.journal";
inline constexpr std::string_view kFlushName = ".flush-requested";
inline constexpr std::string_view kInvalidDir = ".invalid";

struct StagedFile {
  std::string id;  // the UUIDv7, without ".json"
  int64_t bytes = 0;
};

struct StagingTotals {
  int64_t files = 0;
  int64_t bytes = 0;
};

// The staging folder of `store`, created (0700) when missing; refuses a symlink.
Result<std::string> EnsureStagingDir(const store::Store& store);

// Validates `input` as a staged entry (errors name the field and `<stdin>`)
// and writes it, in canonical form, to `staging/<uuidv7>.json` atomically.
// Returns the new id.
Result<std::string> Stage(const store::Store& store, std::string_view input, text::TimePoint now);

// The staged entries, oldest first (ids are time-ordered). Only names that
// are UUIDv7s followed by ".json" count; temporary and run files are ignored.
// A missing folder holds nothing.
Result<std::vector<StagedFile>> ListStaged(const store::Store& store);

StagingTotals Totals(const std::vector<StagedFile>& files);

// True when `totals` reach either threshold.
bool AtThreshold(const StagingTotals& totals, const Settings& settings);

// The path of staged entry `id`.
std::string StagedPath(const store::Store& store, std::string_view id);

}  // namespace lore::consolidate
