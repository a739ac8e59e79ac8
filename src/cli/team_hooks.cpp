#include "cli/team_hooks.h"

#include <unistd.h>

#include "cli/io.h"
#include "lore/app/team.h"
#include "proc/process.h"

namespace lore::cli {

bool TeamConfigured(const store::Store& store) {
  if (!app::TeamUrlConfigured(store)) return false;
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
