#include "lore/app/team.h"

#include "lore/app/store.h"
#include "lore/config/config.h"
#include "lore/fs/fd.h"

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

bool TeamUrlConfigured(const store::Store& store) {
  if (!fs::Exists(store.dir())) return false;
  auto cfg = config::Config::Load(store.config_path());
  return cfg && cfg->Has("team.url");
}

}  // namespace lore::app
