// Starting a consolidation in the background, detached from the caller.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"

namespace lore::consolidate {

// The absolute path of the running executable (/proc/self/exe).
Result<std::string> SelfExe();

// Runs `argv` (argv[0] a path) detached: double fork, setsid, standard
// input/output/error on /dev/null, every other descriptor closed. Returns as
// soon as the intermediate child has exited (no zombie is left), without
// waiting for the program.
Status SpawnDetached(const std::vector<std::string>& argv);

}  // namespace lore::consolidate
