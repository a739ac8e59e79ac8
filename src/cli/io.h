// Terminal and stream helpers for the CLI.
#pragma once

#include <cstdlib>
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
// Writes `text` to stderr as it is (lines already made, "lore: " and all).
void PrintError(std::string_view text);

// The most any verb or hook reads from standard input (docs/formats.md).
inline constexpr size_t kMaxStdinBytes = size_t{16} << 20;

// Reads all of standard input; an error (nothing read is used) when it holds
// more than `max_bytes`, and then, when `head` is given, its first
// kStdinHeadBytes go there (what a hook reads its session id from).
inline constexpr size_t kStdinHeadBytes = size_t{64} << 10;
Result<std::string> ReadStdin(size_t max_bytes = kMaxStdinBytes, std::string* head = nullptr);

// The value of the environment variable `name`, or "" when it is not set.
inline std::string EnvOr(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace lore::cli
