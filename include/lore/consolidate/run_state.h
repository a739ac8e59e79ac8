// The outcome of the last consolidation run, kept in
// `staging/.consolidation.state.json` for `lore status`:
//   {"last_run": {"run_id", "engine", "started_at", "finished_at", "outcome",
//                 "consumed_ids", "changed", "notes", "invalid_ids", "error",
//                 "distill_error"}}
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::consolidate {

struct RunRecord {
  std::string run_id;
  std::string engine;
  std::string started_at;
  std::string finished_at;
  std::string outcome;                    // "ok" or "failed"
  std::vector<std::string> consumed_ids;  // removed from staging when ok
  std::vector<std::string> changed;       // store-relative paths written
  std::vector<std::string> notes;         // what the engine did, one line each
  std::vector<std::string> invalid_ids;   // entries moved to staging/.invalid/
  std::string error;                      // why it failed
  std::string distill_error;              // why the okf/ bundle was not refreshed after it
};

// The record as a JSON object (keys in the order above).
std::string RenderRunRecord(const RunRecord& run);

// Replaces the state file atomically.
Status WriteLastRun(const store::Store& store, const RunRecord& run);
// The last run, or nullopt when none was recorded.
Result<std::optional<RunRecord>> ReadLastRun(const store::Store& store);

// Records on the last run that distilling okf/ after it failed (empty
// `error`: it succeeded).
Status RecordDistill(const store::Store& store, const std::string& error);

}  // namespace lore::consolidate
