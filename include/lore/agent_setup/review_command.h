// The review slash command for Claude Code, `.claude/commands/lore-review.md`.
// Its text is the repository's share/claude-code/commands/lore-review.md,
// embedded at build time (cmake/LoreSources.cmake), so what `lore init`
// writes never differs from the file that ships.
#pragma once

#include <string_view>

namespace lore::agent_setup {

// Where the command lives in a project, and its bytes.
inline constexpr std::string_view kReviewCommandRel = ".claude/commands/lore-review.md";
std::string_view ReviewCommandText();

}  // namespace lore::agent_setup
