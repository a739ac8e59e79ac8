// Handing a verb over to lore-llm, the program beside lore that links
// libcurl, so that lore itself never loads HTTP code.
#pragma once

#include <string>
#include <vector>

namespace lore::cli {

// Replaces this process with `lore-llm <args…>` (found beside the running
// lore); returns only on failure, with the exit code after reporting it.
// `fallback` is the repair offered when lore-llm is missing.
int ExecLoreLlm(std::vector<std::string> args, const std::string& fallback);

}  // namespace lore::cli
