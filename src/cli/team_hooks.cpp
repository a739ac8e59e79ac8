#include "cli/team_hooks.h"

#include <unistd.h>

#include "cli/io.h"
#include "lore/config/config.h"
#include "lore/fs/fd.h"
#include "proc/process.h"

namespace lore::cli {

bool TeamConfigured(const store::Store& store) {
  if (!fs::Exists(store.dir())) return false;
  auto cfg = config::Config::Load(store.config_path());
  if (!cfg || !cfg->Has("team.url")) return false;  // a broken config.toml: the verbs report it
  std::string team = LoreTeamPath();
  return !team.empty() && ::access(team.c_str(), X_OK) == 0;
}

void StartTeamSync(const store::Store& store, const std::string& repo, TeamHookEvent event) {
  if (!TeamConfigured(store)) return;
  std::string team = LoreTeamPath();
  const char* verb = event == TeamHookEvent::kSessionStart ? "pull" : "sync";
  if (auto s = proc::StartDetached({team, verb, repo}, "the team sync"); !s)
    ReportWarning(s.error());
}

}  // namespace lore::cli
