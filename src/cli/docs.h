// The man page and the shell completions, generated from the command table
// (the CLI11 tree that Main builds), so that neither is ever written twice.
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace lore::cli {

// lore(1) in roff: every visible verb and sub-verb with its arguments and
// options, then the environment, the files and the exit status.
std::string ManPage(const CLI::App& app);

// A completion script for `shell` ("bash" or "zsh"): verbs, sub-verbs and
// each one's options. Empty for any other shell.
std::string Completion(const CLI::App& app, std::string_view shell);

}  // namespace lore::cli
