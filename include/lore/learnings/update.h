// Every change to learnings.jsonl: promotion (append, or confirm an existing
// learning), contradiction and pruning (docs/learnings.md).
//
// Locking. Each change runs under the store lock (store/store_lock.h,
// exclusive): appends as well as rewrites, so that a line appended by one
// lore process is never lost by another's rewrite. A promotion runs under
// the one its caller holds (the proposals write lock takes it). A rewrite goes to a
// temporary file that is fsynced and renamed over learnings.jsonl
// (fs/atomic_file.h); it changes only the lines it means to: blank,
// malformed and foreign lines are kept byte for byte.
//
// Crash safety. A promotion either appends lines (each one write) or, when it
// confirms, rewrites the file once: a kill -9 leaves the old file or the new
// one. A confirmation records the proposal id in `confirmed_by`, so a rerun
// (SettledIds) never confirms twice. A prune appends what it removes to
// learnings-archive.jsonl before the rewrite, exactly once across a crash
// (proposals/archive_once.h).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/learnings/lifecycle.h"
#include "lore/store/store_lock.h"

namespace lore::learnings {

struct Files {
  std::string dir;        // the store directory (its lock is the store lock)
  std::string learnings;  // learnings.jsonl
  std::string archive;    // learnings-archive.jsonl
  std::string marker;     // .learnings-archive.pending
  static Files InStore(const std::string& store_dir);
};

// One approved proposal, already validated, as the learning it would become
// (proposals::ToLearning).
struct Candidate {
  std::string proposal_id;
  Json learning;
};

struct PromoteOptions {
  text::TimePoint now{};
};

struct PromoteResult {
  int64_t appended = 0, confirmed = 0;     // written = appended + confirmed
  std::vector<std::string> written_ids;    // proposal ids, in candidate order
  std::vector<std::string> confirmed_ids;  // the learnings' ids, one per confirmation
  std::vector<std::string> errors;         // one line each
};

// Writes `candidates` in order: one whose type equals, and whose
// NormaliseSubject equals, that of a live learning (the first such line, or
// one this call added) confirms it; the others are appended. `held` is the
// store lock of `files.dir`, held by the caller (proposals::WriteLock holds
// it while a review promotes).
Result<PromoteResult> Promote(const store::StoreLock& held, const Files& files,
                              const std::vector<Candidate>& candidates,
                              const PromoteOptions& options);

struct ContradictResult {
  std::string id;
  double before = 0, after = 0;
};

// Lowers the confidence of the learning `id` (its exact id, or a unique
// prefix of at least 4 characters) by 0.2, floor 0. kNotFound when no
// learning has it, kInvalidInput when a prefix is ambiguous.
Result<ContradictResult> Contradict(
    const Files& files, std::string_view id,
    std::chrono::milliseconds lock_timeout = store::kStoreLockTimeout);

// Confirms the learning `id` (exact) in use: as a promotion's confirmation
// (lifecycle.h Confirm: occurrences + 1, confidence + 0.15, expiry renewed)
// with `use_key` ("use:<date>") in confirmed_by, so that one key confirms a
// learning once. False when that key confirmed it already; kNotFound when no
// learning has the id.
Result<bool> ConfirmInUse(const Files& files, std::string_view id, std::string_view use_key,
                          text::TimePoint now,
                          std::chrono::milliseconds lock_timeout = store::kStoreLockTimeout);

struct PruneOptions {
  text::TimePoint now{};
  std::chrono::milliseconds lock_timeout = store::kStoreLockTimeout;
};

struct PruneResult {
  int64_t pruned = 0;  // lines removed
  int64_t kept = 0;    // lines left (blank and malformed ones included)
  int64_t archived_bytes = 0;
  std::vector<std::string> pruned_ids;
};

// Removes every learning that is not live at `now` (past expires_at, or at
// confidence <= 0), appending its exact line to learnings-archive.jsonl
// first; then rewrites learnings.jsonl without them.
Result<PruneResult> Prune(const Files& files, const PruneOptions& options);

}  // namespace lore::learnings
