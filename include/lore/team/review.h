// The team review (docs/team.md, "Review"): a reviewer machine claims its
// batch from the team queue, may decide only what it holds, and tells the
// team what it decided once its own files hold the decisions; the proposing
// machine then clears those proposals from its local queue.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/team/pg.h"
#include "lore/teamsync/team.h"

namespace lore::team {

struct ReviewMarks {
  int64_t kept = 0, declined = 0;
};

// In one transaction: every team proposal still queued that this machine
// claimed or proposed and that its own files settled (learnings.jsonl:
// kept, proposals.rejected.jsonl: declined) is marked so, with this machine
// and the time. What the files do not hold is not marked.
Result<ReviewMarks> MarkReviewed(Conn& conn, const store::Store& store,
                                 const teamsync::Settings& s);

// Marks (above), then in one transaction renews this machine's live claims
// and claims queued proposals nobody holds (FOR UPDATE SKIP LOCKED) up to
// `size` in all, and writes the claimed batch's queue lines to
// teamsync::kReviewClaimFile (atomically, under the proposals write lock).
// Returns how many it holds.
Result<int64_t> ClaimForReview(Conn& conn, const store::Store& store, const teamsync::Settings& s,
                               int size);

// Fails (nothing changed) unless this machine holds the claim of every
// proposal of `ids`; renews those claims otherwise. One transaction.
Status CheckClaims(Conn& conn, const store::Store& store, const teamsync::Settings& s,
                   const std::vector<std::string>& ids);

// Removes from the local queue (proposals.jsonl, through the review's
// archive-and-rewrite under its write lock) every proposal of this machine
// the team marked kept or declined. Returns how many.
Result<int64_t> ClearReviewed(Conn& conn, const store::Store& store, const teamsync::Settings& s);

}  // namespace lore::team
