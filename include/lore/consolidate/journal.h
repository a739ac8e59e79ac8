// Committing a run all at once: the shadow files and the journal.
//
// A run's changes are first written, complete and fsynced, as shadow files in
// `staging/.run-<run_id>/`. Then the journal `staging/.consolidation.journal`
// is written atomically (temporary file, fsync, rename): from that instant
// the run is committed. Each shadow file is then renamed over its target,
// the consumed staged entries are removed, and the journal is removed last.
// A run that dies before the journal exists changed nothing (its shadow
// folder is swept later); one that dies after is rolled forward by the next
// consolidation or `lore status`, which repeat the renames (a shadow already
// moved is skipped) and the removals. See docs/consolidation.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lore/consolidate/workspace.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::consolidate {

// Commits `changes` and removes the staged entries `consumed_ids`. Before
// the commit point, refuses (kBusy, nothing changed) when a target is no
// longer what `baselines` says it was when the run read it.
Status CommitRun(const store::Store& store, const std::string& run_id,
                 const std::vector<Workspace::Change>& changes,
                 const std::map<std::string, FileId>& baselines,
                 const std::vector<std::string>& consumed_ids);

// Must be called under the run lock. Rolls a leftover journal forward and
// removes shadow folders of runs that never committed. Returns the run id of
// the journal rolled forward, or "" when there was none.
Result<std::string> Recover(const store::Store& store);

}  // namespace lore::consolidate
