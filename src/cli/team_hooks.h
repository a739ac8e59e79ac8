// The session hooks' part in the team store (docs/team.md): never waiting on
// the network, they only start lore-team in the background.
#pragma once

#include <string>
#include <vector>

#include "lore/app/store.h"

namespace lore::cli {

// The path of lore-team beside the running lore ("" when unknown).
std::string LoreTeamPath();

// Replaces this process with `lore-team <args…>`; returns (after one error
// line) only on failure.
int ExecLoreTeam(std::vector<std::string> args);

// True when the store's config.toml names a team ([team] url) and lore-team
// is installed beside lore.
bool TeamConfigured(const store::Store& store);

enum class TeamHookEvent { kSessionStart, kSessionEnd };

// When the store has a [team] url and lore-team is installed: starts
// `lore-team pull <repo>` (session start) or `lore-team sync <repo>`
// (session end) detached, and returns at once. Never fails the hook: a
// problem is at most one warning line on standard error.
void StartTeamSync(const store::Store& store, const std::string& repo, TeamHookEvent event);

}  // namespace lore::cli
