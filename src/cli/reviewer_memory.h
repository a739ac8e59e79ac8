// lore as a drop-in for seed 003's reviewer-memory script (issue 16): run
// under the name `reviewer-memory` (a link to the binary) or with
// LORE_COMPAT=reviewer-memory, lore offers only the script's four verbs and
// speaks as the script does (docs/capture.md).
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::cli {

inline constexpr std::string_view kReviewerMemory = "reviewer-memory";

// Whether this process speaks as reviewer-memory (set once, by Main).
bool ActingAsReviewerMemory();
void ActAsReviewerMemory();

// `e` in the reference script's words ("symlinked store path is not
// allowed: <path>; replace it with a regular path, then retry"), still naming
// the file, the line where there is one, and the repair. Without the
// "reviewer-memory: " prefix.
std::string ReviewerMemoryMessage(const Error& e);

}  // namespace lore::cli
