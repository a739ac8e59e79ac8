// `lore review` on a team store (docs/team.md, "Review"): the steps lore
// hands to lore-team, run as a child whose output goes to standard error so
// that what lore prints (the batches' JSON) stays its own.
#pragma once

#include <string>
#include <vector>

namespace lore::cli {

enum class TeamStep {
  kDone,     // lore-team did it
  kOffline,  // the team database cannot be used: one warning line was printed
  kFailed,   // refused or failed: one line was printed
};

// Runs `lore-team <args…>` (beside lore) and waits for it.
TeamStep RunTeamStep(std::vector<std::string> args);

}  // namespace lore::cli
