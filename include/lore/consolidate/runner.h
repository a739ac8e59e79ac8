// Running consolidations: one at a time per store, all or nothing, and
// coalesced (docs/consolidation.md).
//
// Consolidate() takes the run lock or leaves at once when another process
// holds it (with --flush it first leaves `staging/.flush-requested`, which the
// holder honours before it ends). Holding the lock it rolls a leftover
// journal forward, then runs while the staging folder has entries at or above
// the thresholds (any entry at all when flushing): each run fixes its
// consumed ids from a snapshot, publishes them in the lock, lets the engine
// work on a Workspace, and commits through the journal, which also removes
// exactly the consumed entries. Entries staged meanwhile wait for the next
// run. After releasing the lock it looks once more, so that an entry staged
// while it was finishing (whose trigger saw the lock held) is not left behind.
#pragma once

#include <optional>
#include <vector>

#include "lore/consolidate/engine.h"
#include "lore/consolidate/run_lock.h"
#include "lore/consolidate/run_state.h"
#include "lore/consolidate/settings.h"
#include "lore/consolidate/staging.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::consolidate {

struct ConsolidateOptions {
  bool flush = false;  // run even under the thresholds
};

struct ConsolidateReport {
  bool busy = false;               // another consolidation holds the lock
  std::optional<LockBody> holder;  // ... this one (when readable)
  bool flush_left = false;         // busy with --flush: the holder will flush
  std::vector<RunRecord> runs;     // the runs made, in order
  std::vector<Error> warnings;     // reclaimed lock, rolled-forward journal, invalid entries
  StagingTotals left;              // staged after the last run
  std::vector<std::string> trash;  // what the commits displaced: free with RemoveTrash
  bool failed() const;             // true when a run failed
};

// Runs consolidations of `store` with `engine` as described above. An Error
// is returned only when the machinery itself fails (the staging folder, the
// lock, recovery); a failed run is reported in `runs`.
Result<ConsolidateReport> Consolidate(const store::Store& store, const Settings& settings,
                                      Engine& engine, const ConsolidateOptions& options);

// Under the lock, when no consolidation runs: rolls a leftover journal
// forward. Returns the warnings to show (empty when there was nothing to do
// or a consolidation is running).
Result<std::vector<Error>> RecoverIfIdle(const store::Store& store);

}  // namespace lore::consolidate
