// The man page and the shell completions, generated from the command table
// (the CLI11 tree that Main builds), so that neither is ever written twice.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace lore::cli {

// lore's visible verbs in the order a person meets them in `lore help`, the
// man page and the completions: the everyday verbs first (init, status,
// search, review, serve, help), then the rest, the verbs agents and hooks
// run (seed 003's capture verbs, hook) last. A verb the order does not name
// follows, in the order it was registered.
std::vector<const CLI::App*> OrderedVerbs(const CLI::App& app);

// CLI11's help formatter with lore's top-level verbs in OrderedVerbs' order.
std::shared_ptr<CLI::Formatter> OrderedFormatter();

// lore(1) in roff: every visible verb and sub-verb with its arguments and
// options, then the environment, the files and the exit status.
std::string ManPage(const CLI::App& app);

// A completion script for `shell` ("bash" or "zsh"): verbs, sub-verbs and
// each one's options. Empty for any other shell.
std::string Completion(const CLI::App& app, std::string_view shell);

}  // namespace lore::cli
