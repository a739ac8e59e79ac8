#include "lore/agent_setup/review_command.h"

#include "lore/agent_setup/review_command_text.h"

namespace lore::agent_setup {

std::string_view ReviewCommandText() { return generated::kReviewCommandMarkdown; }

}  // namespace lore::agent_setup
