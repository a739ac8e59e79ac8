// The team store on PostgreSQL (docs/team.md): the schema, pushing this
// machine's append-only logs line by line and pulling the other machines'
// lines into team/<machine>/<log>. Linked only into lore-team.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/team/pg.h"
#include "lore/teamsync/team.h"

namespace lore::team {

inline constexpr int kSchemaVersion = 2;  // 2: lore_proposals.reviewed_by/_at
inline constexpr int kConnectTimeoutSeconds = 5;

// Creates or upgrades the schema in one transaction (idempotent; concurrent
// inits wait for each other). Returns the version found before (0: none).
Result<int> InitSchema(Conn& conn);
// Fails with a repair naming 'lore team init' unless the schema is current.
Status RequireSchema(Conn& conn, const std::string& config_path);

struct PushReport {
  int64_t lines = 0;                   // lines sent (those already there are not inserted again)
  int64_t logs = 0;                    // logs with something to send
  std::vector<std::string> rewritten;  // logs pushed again from their start
};

struct PullReport {
  int64_t lines = 0;
  int64_t machines = 0;  // machines something came from
};

// Both under the store's team lock (team/sync.lock).
Result<PushReport> Push(Conn& conn, const store::Store& store, const teamsync::Settings& s);
Result<PullReport> Pull(Conn& conn, const store::Store& store, const teamsync::Settings& s);

// Lines of `status`: the schema, this machine, what each machine pushed and
// what this one has not pushed yet.
Result<std::vector<std::string>> Describe(Conn& conn, const store::Store& store,
                                          const teamsync::Settings& s);

}  // namespace lore::team
