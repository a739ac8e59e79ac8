// The claude-code back end: the user's own Claude Code, run headless
// (`claude -p`), so that a person with a Claude login needs no key
// (docs/consolidation.md, "Model back ends").
//
// Every run is one `claude -p` process in a private temporary folder (no
// project's CLAUDE.md or settings), with --tools "" (no built-in tool),
// --strict-mcp-config (none of the user's MCP servers), no setting source
// (none of the user's hooks) and LORE_MODEL_RUN=1 in its environment, which
// every `lore hook` obeys by doing nothing: a model run can never start an
// extraction that starts a consolidation. Its output is read as stream-json
// line by line: usage is added up as the replies arrive and the run is
// killed at the token budget, at llm.run_timeout_seconds, or when the
// consolidation's tools abort it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lore/consolidate/engine.h"
#include "lore/llm/model.h"
#include "lore/store/store.h"

namespace lore::llm {

// The variable a model run's own Claude Code session carries; `lore hook`
// does nothing when it is set.
inline constexpr const char* kModelRunEnv = "LORE_MODEL_RUN";

struct ClaudeRequest {
  std::string system;
  std::string prompt;                // sent on standard input
  std::string mcp_config;            // --mcp-config JSON; "": no MCP server at all
  std::vector<std::string> allowed;  // --allowedTools (the MCP tools' full names)
  int64_t max_turns = 1;
  std::string cwd;  // "": a private temporary folder
};

struct ClaudeOutcome {
  std::string text;  // the result's text
  Usage usage;
  int64_t turns = 0;
};

// Runs `claude -p` as above. `check` is asked after every line of output and
// every 100 ms with the usage so far; an Error it returns kills the run and
// is the result.
Result<ClaudeOutcome> RunClaude(const ModelSettings& settings, const ClaudeRequest& request,
                                const std::function<std::optional<Error>(const Usage&)>& check);

// The consolidation through `claude -p`: the tools of consolidate/tools.h are
// served to it by an MCP server inside this process, reached through a unix
// socket in the run's private folder by `lore-llm tool-relay <socket>` (the
// stdio server claude starts). A refused write changes nothing and counts;
// at memory.consolidation.max_lint_failures refusals the run is killed and
// nothing is committed.
class ClaudeCodeEngine final : public consolidate::Engine {
 public:
  ClaudeCodeEngine(const store::Store& store, std::string relay_program)
      : store_(store), relay_(std::move(relay_program)) {}
  std::string_view name() const override { return "llm"; }
  Result<std::vector<std::string>> Run(const consolidate::RunInput& in,
                                       consolidate::Workspace& ws) override;
  const Usage& used() const { return used_; }

 private:
  const store::Store& store_;
  std::string relay_;
  Usage used_;
};

// `lore-llm tool-relay <socket>`: copies standard input to the socket and the
// socket to standard output until either ends.
Status RelayStdio(const std::string& socket_path);

}  // namespace lore::llm
