#include "cli/team_hooks.h"

#include <unistd.h>

#include "cli/io.h"
#include "lore/config/config.h"
#include "lore/consolidate/spawn.h"
#include "lore/fs/fd.h"

namespace lore::cli {

void StartTeamSync(const store::Store& store, const std::string& repo, TeamHookEvent event) {
  if (!fs::Exists(store.dir())) return;
  auto cfg = config::Config::Load(store.Path("config.toml"));
  if (!cfg || !cfg->Has("team.url")) return;  // a broken config.toml is the other verbs' to report
  std::string team = LoreTeamPath();
  if (team.empty() || ::access(team.c_str(), X_OK) != 0) return;
  const char* verb = event == TeamHookEvent::kSessionStart ? "pull" : "sync";
  if (auto s = consolidate::SpawnDetached({team, verb, repo}); !s) ReportWarning(s.error());
}

}  // namespace lore::cli
