// A review: the proposals to decide, the decisions, and promote-and-clear
// with its guard (docs/proposals.md), made safe against crashes and
// against proposals that arrive while the review runs.
//
// Crash safety. Learning ids are proposal ids, and a proposal that confirmed
// an existing learning is in its confirmed_by (lore/learnings/update.h). A
// queued proposal whose id is already in learnings.jsonl that way (or in
// proposals.rejected.jsonl) was decided by a
// review that died before clearing the queue: it is not asked about again,
// and it is cleared with the next successful review. So a process killed at
// any point loses nothing and writes no learning twice.
//
// Concurrency. Decisions are applied under the write lock to the queue as it
// is then; only the lines that were reviewed (and lines already settled) are
// cleared: proposals queued meanwhile, and undecided ones, stay.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"
#include "lore/text/time.h"

namespace lore::proposals {

enum class Verdict { kUndecided, kApprove, kDecline };

struct Decision {
  Verdict verdict = Verdict::kUndecided;
  std::string reason = "user-declined";  // for kDecline
  text::TimePoint at{};                  // when its batch was decided
};

// What a review shows: the pending proposals in FIFO order. `settled`
// counts queued records already in learnings.jsonl or the rejected file.
struct ReviewSet {
  QueueScan scan;               // the queue as read
  std::vector<size_t> pending;  // indexes into scan.records, FIFO
  int64_t settled = 0;
};

// Reads the queue (briefly under the write lock, so no append is half
// seen) and the ids already promoted or declined. Refuses first a
// config.toml (`paths.config`) that is malformed or whose memory.proposals
// settings are, as propose and every other verb do.
Result<ReviewSet> PrepareReview(const Paths& paths,
                                std::chrono::milliseconds lock_timeout = kLockTimeout);

// Ids found in a JSON Lines file (fast for lines that start {"id":"…").
// A missing file has none.
Result<std::set<std::string>> ReadIds(const std::string& path);

struct PromoteOptions {
  std::string session_id;  // required: non-blank
  text::TimePoint now{};
  std::chrono::milliseconds lock_timeout = kLockTimeout;
  // Ids settled elsewhere (the team reviewed them on another machine): their
  // lines are cleared as settled ones are, without being decided here.
  std::set<std::string> settled_elsewhere;
  // False when the "queue" is not proposals.jsonl (the team review's claimed
  // batch): the store's wave summaries then stay.
  bool remove_summaries = true;
};

struct PromoteResult {
  int64_t written = 0;    // approved proposals now in learnings.jsonl (confirmations too)
  int64_t confirmed = 0;  // of those, how many confirmed an existing learning
  int64_t expected = 0;   // approved proposals
  std::vector<std::string> errors;
  bool cleared = false;
  int64_t summaries_cleared = 0;
  std::optional<std::string> skipped_reason;  // "write-errors", "partial-write: W/E written"
  int64_t declined = 0;                       // lines written to proposals.rejected.jsonl
  int64_t recovered = 0;  // settled records cleared (left by an interrupted review)
  int64_t kept = 0;       // records left queued (undecided or new)
  int64_t archived_bytes = 0;
  std::vector<std::string> approved_ids, declined_ids, kept_ids;
};

// Applies `decisions` (one per `set.pending` entry, same order) and, when
// every approved proposal was written without error, clears what was
// reviewed: its exact bytes go to proposals-archive.jsonl, the queue is
// replaced atomically by the lines that stay, and the summaries of waves
// with nothing left queued are removed. Fails before writing anything when
// the session id is blank or a store path is a symlink.
Result<PromoteResult> PromoteAndClear(const Paths& paths, const ReviewSet& set,
                                      const std::vector<Decision>& decisions,
                                      const PromoteOptions& options);

// The result object: {written, expected, errors, cleared, summariesCleared,
// skippedReason, confirmed, declined, recovered, kept, archivedBytes, ...}.
Json ToJson(const PromoteResult& r);

}  // namespace lore::proposals
