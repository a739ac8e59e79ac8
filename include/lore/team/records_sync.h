// Memory and knowledge records in the team store (teamsync/records.h).
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/team/pg.h"
#include "lore/teamsync/team.h"

namespace lore::team {

struct RecordsReport {
  int64_t pushed = 0, pulled = 0;
  std::vector<std::string> conflicts;  // rel paths with both versions kept
};

// Pushes records changed here (compare-and-swap on the team's version),
// pulls records changed elsewhere, keeps the team's version of a record
// changed on both sides under team/conflicts/ (this one untouched).
Result<RecordsReport> SyncRecords(Conn& conn, const store::Store& store,
                                  const teamsync::Settings& s);

}  // namespace lore::team
