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
// Entries an extract prepared and has not published yet (never consumed).
inline constexpr std::string_view kPendingDir = ".pending";

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

// The canonical text of `input` as Stage would write it: validated, private
// spans and secrets removed (a field left empty by that is an error).
Result<std::string> PrepareEntry(std::string_view input);

// The two steps by which an extract stages exactly once (docs/extract.md,
// "Crash safety"): WriteTentative puts the prepared entry aside as
// `staging/.pending/<name>.<id>.json`, where no consolidation sees it; once
// the extract's cursor has moved past the range, Publish renames it to
// `staging/<id>.json`, never over an existing file. Publish of an entry
// already published (no tentative file of that id left) does nothing and
// returns false. The id in the tentative name ties the file to the cursor that
// names it: a later run's tentative entry is never published under an
// earlier run's id.
Status WriteTentative(const store::Store& store, std::string_view name, std::string_view id,
                      std::string_view text);
Result<bool> Publish(const store::Store& store, std::string_view name, std::string_view id);
// Removes every tentative entry of `name` (runs that died before moving their
// cursor: they will never be published); true when there was one.
Result<bool> DropTentative(const store::Store& store, std::string_view name);

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
