// Handing a verb over to a program beside lore: lore-llm (links libcurl) or
// lore-archive (links libarchive), so that lore itself links neither and can
// be fully static.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"

namespace lore::cli {

// The path of `program` beside the running lore ("" when /proc/self/exe
// cannot be read).
std::string BesideLore(const std::string& program);

// Replaces this process with `<program beside lore> <args…>`; returns only on
// failure, with the exit code after reporting it: `missing` (its path
// filled in) when the program is not there.
int ExecBesideLore(const std::string& program, std::vector<std::string> args, Error missing);

// Replaces this process with `lore-llm <args…>` (found beside the running
// lore); returns only on failure, with the exit code after reporting it.
// `fallback` is the repair offered when lore-llm is missing.
int ExecLoreLlm(std::vector<std::string> args, const std::string& fallback);

}  // namespace lore::cli
