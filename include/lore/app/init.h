// `lore init <agent>` (docs/agents.md) as use cases: the scope lore's set-up
// goes into, the plan of each file's change, writing it or taking lore out
// again, and what `--check` finds in every scope. agent_setup/ merges, plans
// and writes; the front end prints. HOME, CODEX_HOME and PATH are read here.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lore/agent_setup/install.h"
#include "lore/error.h"
#include "lore/text/time.h"

namespace lore::app {

// The agents lore init sets up: claude-code, codex, gemini, cursor, opencode.
const std::vector<std::string_view>& InitAgents();
// The scopes `agent` has: Claude Code's project, local and user; the others'
// project and user.
std::vector<agent_setup::Scope> InitScopes(std::string_view agent);
// The scope `name` names ("project", "local", "user"); project otherwise.
agent_setup::Scope InitScopeNamed(std::string_view name);
// A scope's name, as InitScopeNamed reads it.
std::string_view InitScopeName(agent_setup::Scope scope);
// A piece's state as lore init shows it: "installed", "missing", "different".
std::string_view PieceStateName(agent_setup::PieceState state);

// The scope lore init writes when --scope is not given: where lore's hooks
// already are (so that they never run twice), else, for Claude Code, local in
// a checkout with other contributors (`other_contributors`, asked only then:
// the front end runs git), else project. `why` says which, for the person.
struct ChosenScope {
  agent_setup::Scope scope = agent_setup::Scope::kProject;
  std::string why;
};
ChosenScope ChooseInitScope(const std::string& agent, const std::string& project,
                            const std::function<bool()>& other_contributors);

// What `lore init` would change in one scope (nothing is written).
Result<agent_setup::Plan> PlanInit(std::string_view agent, const std::string& project,
                                   agent_setup::Scope scope);
// What `lore init --remove` would take out of one scope.
Result<agent_setup::Plan> PlanInitRemoval(std::string_view agent, const std::string& project,
                                          agent_setup::Scope scope);
// --remove without --scope: the scopes that hold any of lore's pieces.
std::vector<agent_setup::Scope> ScopesWithLore(const std::string& agent,
                                               const std::string& project);
// Writes (or removes) the plan's files, each changed one backed up first.
Result<std::vector<agent_setup::Applied>> ApplyInit(const agent_setup::Plan& plan,
                                                    text::TimePoint now);

// The other scopes of `agent` that hold lore's hooks too (the agent runs
// each), with the file holding them.
std::vector<std::pair<agent_setup::Scope, std::string>> HooksInOtherScopes(
    const std::string& agent, const agent_setup::Plan& plan);
// The settings files that enable lore's Claude Code plugin for `project`
// (its hooks run beside lore init's).
std::vector<std::string> PluginEnabledIn(const std::string& project);
// Whether Codex or Gemini CLI reads lore's entries in the plan's folder (they
// ignore a folder the person has not trusted; lore never trusts one).
Result<agent_setup::Trust> FolderTrust(const std::string& agent, const agent_setup::Plan& plan);

// Every piece of the plan in place, or how many are there at all.
bool AllInstalled(const agent_setup::Plan& plan);
size_t PiecesPresent(const agent_setup::Plan& plan);
// The pieces of file `rel` in `state`.
std::vector<const agent_setup::Piece*> PiecesOf(const agent_setup::Plan& plan,
                                                const std::string& rel,
                                                agent_setup::PieceState state);
// The rule of permissions.allow that lets lore's MCP tools run without a
// prompt ("mcp__lore"), and whether `piece` is that rule, missing: the plan
// adds it.
std::string_view LorePermission();
bool AddsLorePermission(const agent_setup::Piece& piece);
// A file's change as a unified line diff, for --dry-run.
std::string FileDiff(const agent_setup::FilePlan& file);

// The lore the hooks run (`lore` on PATH, resolved from `cwd`) against this one.
struct LoreBinary {
  std::string on_path;  // empty: none
  std::string running;
  bool same = false;
};
LoreBinary CheckLoreBinary(const std::string& cwd);

// `lore init --check`: every scope of the agent read. `active` is the scope
// reported first: the one fully installed, else the one holding most of
// lore's pieces. `ok` when the hooks run this lore, every piece is in place
// in one scope, no scope failed to read, the hooks are in at most one scope
// and the folder is trusted where that matters.
struct InitCheck {
  std::string project;  // the active plan's (absolute), else as given
  std::vector<agent_setup::Plan> plans;
  std::vector<std::pair<agent_setup::Scope, Error>> failed;
  std::optional<size_t> active;  // index into plans
  bool installed = false;        // the active plan is complete
  std::vector<std::string> hook_scopes;
  std::optional<agent_setup::Trust> trust;
  std::string trust_error;  // the trust could not be read
  bool trusted = false;
  LoreBinary binary;
  bool ok = false;
};
InitCheck CheckInit(const std::string& agent, const std::string& project, const std::string& cwd);

}  // namespace lore::app
