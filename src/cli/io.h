// Terminal and stream helpers for the CLI.
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::cli {

// Prints "lore: <error>" as one line on stderr and returns kExitError.
int ReportError(const Error& e);
// Prints "lore: warning: <error>" on stderr.
void ReportWarning(const Error& e);

// Writes `text` to stdout (adding a newline when `newline`).
void Print(std::string_view text, bool newline = true);

// Reads all of standard input.
Result<std::string> ReadStdin();

}  // namespace lore::cli
