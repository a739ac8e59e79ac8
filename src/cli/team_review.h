// `lore review` on a team store (docs/team.md, "Review"): the steps lore
// hands to lore-team, run as a child whose output goes to standard error so
// that what lore prints (the batches' JSON) stays its own.
#pragma once

#include <string>
#include <vector>

#include "lore/app/review.h"

namespace lore::cli {

using TeamStep = app::TeamStep;

// Runs `lore-team <args…>` (beside lore) and waits for it.
TeamStep RunTeamStep(std::vector<std::string> args);

}  // namespace lore::cli
