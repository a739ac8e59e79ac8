// lore as a drop-in for seed 003's reviewer-memory script (issue 16): run
// under the name `reviewer-memory` (a link to the binary) or with
// LORE_COMPAT=reviewer-memory, lore offers only the script's four verbs and
// speaks as the script does (docs/capture.md; its words: lore/app/report.h).
#pragma once

#include <string_view>

#include "lore/app/report.h"

namespace lore::cli {

inline constexpr std::string_view kReviewerMemory = "reviewer-memory";

// Whether this process speaks as reviewer-memory (set once, by Main).
inline bool ActingAsReviewerMemory() { return app::Speaking() == app::Voice::kReviewerMemory; }
inline void ActAsReviewerMemory() { app::SpeakAs(app::Voice::kReviewerMemory); }

}  // namespace lore::cli
