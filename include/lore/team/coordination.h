// Team-wide coordination in the database (docs/team.md): the proposal queue
// with the per-wave quota and floor enforced in one transaction, review
// batches handed out with FOR UPDATE SKIP LOCKED, and consolidation
// single-flight across machines with a session advisory lock.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/team/pg.h"
#include "lore/teamsync/team.h"

namespace lore::team {

struct ProposalReport {
  int64_t queued = 0, dropped = 0, below_floor = 0;
  int64_t known = 0;  // already in the team queue (a repeated sync)
};

// Offers every proposal of the local queue (never rewritten) to the team
// queue: per proposal one transaction that locks the wave's row, then queues
// it unless below the floor or at the quota (this store's [memory.proposals]).
Result<ProposalReport> PushProposals(Conn& conn, const store::Store& store,
                                     const teamsync::Settings& s);

// Claims at most `size` queued proposals nobody claimed in the last hour
// (FOR UPDATE SKIP LOCKED: two reviewers never get the same one); returns
// their exact queue lines.
Result<std::vector<std::string>> ClaimReviewBatch(Conn& conn, const store::Store& store,
                                                  const teamsync::Settings& s, int size);

// pg_try_advisory_lock on the repo key, held by `conn`'s session until it
// closes (a crashed machine's lock goes with its connection). False when
// another machine holds it.
Result<bool> TryConsolidationLock(Conn& conn, const store::Store& store);

}  // namespace lore::team
