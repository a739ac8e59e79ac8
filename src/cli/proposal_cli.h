// Shared by the proposal verbs' implementation files.
#pragma once

#include "cli/command.h"
#include "lore/app/review.h"

namespace lore::cli {

// `lore review` (cmd_review.cpp).
void RegisterReviewCommand(Registry& r);

// Runs the interactive picker on the terminal (stdin and stdout must be
// terminals) until `picker` is done or quit. The terminal is in raw mode
// only while this runs and is restored on every way out, signals included.
Status RunPicker(app::ReviewPicker* picker);

}  // namespace lore::cli
