// A short line diff for `lore init --dry-run`: the lines both texts share at
// the start and at the end are left out (a few kept as context), the rest is
// shown as removed ("-") and added ("+") lines.
#pragma once

#include <string>
#include <string_view>

namespace lore::agent_setup {

// "@@ line N @@" followed by up to `context` shared lines ("  "), the removed
// lines ("- "), the added ones ("+ ") and shared lines again; empty when the
// texts are equal.
std::string LineDiff(std::string_view before, std::string_view after, size_t context = 2);

}  // namespace lore::agent_setup
