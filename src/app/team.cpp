#include "lore/app/team.h"

#include "lore/app/store.h"

namespace lore::app {

Result<TeamStore> OpenTeamStore(std::string_view repo) {
  LORE_ASSIGN(store::Store store, OpenStore(repo));
  LORE_ASSIGN(std::optional<teamsync::Settings> settings, teamsync::LoadSettings(store));
  if (!settings) {
    return Fail(ErrorCode::kNotFound, "no team database configured", store.config_path(), 0,
                "add [team] url = \"postgresql://user@host/db\" (docs/team.md)");
  }
  return TeamStore{std::move(store), std::move(*settings)};
}

}  // namespace lore::app
