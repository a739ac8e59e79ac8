// Committing a run all at once: the shadow files and the journal.
//
// A run's changes are first written, complete, as shadow files in
// `staging/.run-<run_id>/`, made durable by one syncfs(2). Then the journal
// `staging/.consolidation.journal` (each shadow with its target and inode,
// and the consumed ids) is written atomically (temporary file, fsync,
// rename), under the store lock once every target is re-checked: from that
// instant the run is committed. Each shadow is then
// exchanged with its target (renameat2 RENAME_EXCHANGE; a plain rename for a
// new file), so the old version lands in the run folder instead of being
// freed on the spot, which is slow on a busy disk; the consumed staged
// entries are moved into the run folder too, and the journal is removed
// last, still under the lock. A run that dies before the journal exists changed nothing (its
// folder is swept later); one that dies after is rolled forward by the next
// consolidation or `lore status`: a target that already holds its shadow's
// inode is done, so repeating is safe. See docs/consolidation.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lore/consolidate/workspace.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::consolidate {

// What CommitRun did when nothing failed: committed, or found a target
// changed since the run read it (then nothing was written and the staged
// entries stay; `changed` is that target, store-relative).
struct CommitOutcome {
  bool committed = false;
  std::string changed;
};

// Commits `changes` and consumes the staged entries `consumed_ids`. The
// shadows are written first; then, under the store lock
// (store/store_lock.h, which record writes take too), every target is
// compared with `baselines` (identity and content, as the run read it) and
// every consumed entry must still be staged; the journal is written and
// applied before the lock is released. So a record write lands either
// before the check (and is seen) or after the commit. A vanished entry is an
// Error (kBusy); a changed target is the outcome {false, target}.
// Afterwards the run's folder holds only what the commit displaced: remove
// it with RemoveRunFolder.
Result<CommitOutcome> CommitRun(const store::Store& store, const std::string& run_id,
                                const std::vector<Workspace::Change>& changes,
                                const std::map<std::string, FileId>& baselines,
                                const std::vector<std::string>& consumed_ids);

// The error of a run that found `rel` changed on each of its `attempts`.
Error ConflictError(const store::Store& store, const std::string& rel, int attempts);

enum class Removal {
  kNow,    // before returning
  kLater,  // renamed to staging/.trash-<run_id> at once, removed by RemoveTrash
};
// Removes the folder of committed run `run_id` (old versions, consumed
// entries), or with kLater moves it aside and returns the trash folder's path
// ("" when it was removed at once).
std::string RemoveRunFolder(const store::Store& store, const std::string& run_id, Removal how);

// Removes trash folders of RemoveRunFolder(kLater). A folder some other
// process removes meanwhile is no error; a trash folder nobody removed is
// swept by Recover ten minutes after it became trash.
void RemoveTrash(const std::vector<std::string>& trash);

// Must be called under the run lock. Rolls a leftover journal forward (under
// the store lock) and
// removes folders of runs that never committed (and trash older than ten
// minutes, whose remover died). Returns the run id of the journal rolled
// forward, or "" when there was none.
Result<std::string> Recover(const store::Store& store);

// For `lore check`: a journal left in place (a commit the next run or
// `lore status` finishes) must be one that Recover can read, else every
// writer refuses the store. Ok when there is none; reads only.
Status CheckJournal(const store::Store& store);

}  // namespace lore::consolidate
