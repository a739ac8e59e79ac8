// The team store (docs/team.md) as lore-team opens it: a repository's store
// with its [team] settings. What lore-team then does with the database is its
// own (lore/team/, which links libpq), handed the store and the settings.
#pragma once

#include <string_view>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/teamsync/review.h"
#include "lore/teamsync/team.h"

namespace lore::app {

struct TeamStore {
  store::Store store;
  teamsync::Settings settings;
};

// Opens (creating it if need be) the store of `repo` and reads its [team]
// settings; an error naming config.toml, and the setting to add, when no team
// database is configured.
Result<TeamStore> OpenTeamStore(std::string_view repo);

// Whether the store exists and its config.toml names a team database
// ([team] url). A config.toml that cannot be read is no team here: the verbs
// that read it report it.
bool TeamUrlConfigured(const store::Store& store);

// lore-team's exit code when the database cannot be used: `lore review` then
// falls back to the local queue.
inline constexpr int kExitTeamOffline = teamsync::kExitTeamOffline;
// How many proposals `lore review` claims unless told.
inline constexpr int kDefaultClaim = teamsync::kDefaultClaim;

}  // namespace lore::app
