// The command table: each verb is added by a Register* function from the file
// that implements it. Only src/cli/ prints or exits.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "lore/error.h"

namespace lore::cli {

// Exit codes shared by every verb (some verbs document more).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;

class Registry {
 public:
  explicit Registry(CLI::App& app) : app_(app) {}

  // Adds verb `name`; `run` is called once argument parsing succeeded and
  // returns the exit code. Options are added to the returned subcommand.
  CLI::App* Add(const std::string& name, const std::string& summary, std::function<int()> run);

  // Adds verb `name`, run by `program` beside lore: lore parses none of its
  // words and replaces itself with `<program> <name> <words…>`, so that what
  // only that verb needs is never linked into lore. `missing` is reported
  // when the program is not there.
  void Forward(const std::string& name, const std::string& summary, const std::string& program,
               Error missing);
  // For a verb added by Forward, the runner that hands `words` over to its
  // program (`lore help <verb>` passes "--help"); nullptr for lore's own.
  std::function<int(std::vector<std::string> words)> Forwarded(const std::string& name) const;

  // The chosen verb's runner, if any.
  std::function<int()> Chosen() const;

  // Lets verb `sub` answer its own argument errors (its exit code, its
  // output) instead of the usual usage message and exit code 2: `lore
  // propose` reports them as JSON with exit 4, hooks always exit 0.
  void OnParseError(CLI::App* sub, std::function<int(const std::string& message)> handler);
  // The handler of a verb that was being parsed, if it has one.
  std::function<int(const std::string&)> ParseErrorHandler() const;
  const std::vector<std::string>& names() const { return names_; }

 private:
  CLI::App& app_;
  std::vector<std::string> names_;
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners_;
  std::vector<std::pair<CLI::App*, std::function<int(const std::string&)>>> parse_error_handlers_;
  std::vector<std::pair<std::string, std::function<int(std::vector<std::string>)>>> forwarded_;
};

// One function per implementation file (cmd_*.cpp).
void RegisterCaptureCommands(Registry& r);
void RegisterArchiveCommands(Registry& r);   // export, import (run by lore-archive)
void RegisterServeCommands(Registry& r);     // serve (run by lore-serve)
void RegisterDistillCommands(Registry& r);   // distill
void RegisterMcpCommands(Registry& r);       // mcp
void RegisterProposalCommands(Registry& r);  // propose, proposals, review
void RegisterHookCommands(Registry& r);      // hook <event>
// The handler of `lore hook <event>` (nullptr for an unknown event), for
// Main to run without building the command table (cmd_hook.cpp).
int (*HookHandler(std::string_view event))();
void RegisterMemoryCommands(Registry& r);
void RegisterLintCommands(Registry& r);
void RegisterSearchCommands(Registry& r);
void RegisterConsolidateCommands(Registry& r);
void RegisterExtractCommands(Registry& r);      // extract
void RegisterInitCommands(Registry& r);         // init <agent>, init --check
void RegisterLearningsCommands(Registry& r);    // learnings [contradict|prune]
void RegisterTeamCommands(Registry& r);         // team init|status, sync (exec lore-team)
void RegisterAgentMemoryCommands(Registry& r);  // import-agent-memory (lore import agent-memory)
// The only verbs offered when lore runs as reviewer-memory (reviewer_memory.h).
void RegisterReviewerMemoryCommands(Registry& r);

// Runs lore with the given arguments; returns the process exit code. Under
// the name `reviewer-memory` or with LORE_COMPAT=reviewer-memory it runs as
// that script instead (reviewer_memory.h).
int Main(int argc, char** argv);

}  // namespace lore::cli
