// Setting lore up in a project for a coding agent: what `lore init` plans,
// writes and checks. The library reads and writes the project's files; it
// never prints (the CLI renders plans and pieces).
//
// For Claude Code (the agent "claude-code"), in one of three scopes:
//   project (shared with everyone who clones the project):
//     .claude/settings.json            lore's hooks (merge.h), every other setting kept
//     .mcp.json                        mcpServers.lore, other servers kept
//     .claude/commands/lore-review.md  the review slash command (review_command.h)
//   local (this person, this project; nothing a teammate sees):
//     .claude/settings.local.json      lore's hooks
//     ~/.claude.json                   projects["<project>"].mcpServers.lore
//     ~/.claude/commands/lore-review.md
//     .git/info/exclude                /.claude/settings.local.json (when a git checkout)
//   user (this person, every project):
//     ~/.claude/settings.json          lore's hooks
//     ~/.claude.json                   mcpServers.lore
//     ~/.claude/commands/lore-review.md
// A file lore changes is first copied to `<file>.lore-backup-<UTC stamp>`
// (0600) and then replaced atomically, keeping its mode (new files 0600,
// new folders 0700). A symlink at any of these paths (or at `.claude` or
// `.claude/commands`) is refused: replacing it would turn the link into a
// file, and following it would write outside the project.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "lore/agent_setup/merge.h"
#include "lore/error.h"

namespace lore::agent_setup {

struct FilePlan {
  std::string path;  // absolute
  std::string rel;   // relative to the project, for messages
  bool exists = false;
  mode_t mode = 0600;    // the existing file's mode, kept
  std::string old_text;  // the bytes read (empty when missing)
  std::string new_text;  // what to write
  bool changed = false;
  bool remove = false;  // --remove: the file goes (backed up first)
};

// The agents lore init sets up: claude-code, codex, gemini, cursor, opencode.
// For the others than Claude Code (project scope; user scope under ~):
//   codex     .codex/config.toml [mcp_servers.lore], .codex/hooks.json SessionStart
//   gemini    .gemini/settings.json mcpServers.lore and hooks.SessionStart
//   cursor    .cursor/mcp.json mcpServers.lore
//   opencode  opencode.json mcp.lore (~/.config/opencode/opencode.json for the user)
const std::vector<std::string_view>& Agents();

enum class Scope { kProject, kLocal, kUser };
inline constexpr Scope kScopes[] = {Scope::kProject, Scope::kLocal, Scope::kUser};
std::string_view ScopeName(Scope s);  // "project", "local", "user"

struct Plan {
  Scope scope = Scope::kProject;
  std::string project;          // absolute
  std::vector<FilePlan> files;  // in the order they are written
  std::vector<Piece> pieces;    // each piece's state before the change
  bool changed() const;
};

// Reads the scope's files and plans the changes for `agent`, writing
// nothing. `home` is the person's home folder (the local and user scopes
// write under it). Errors: an unknown agent, a project folder that does not
// exist, no home for a scope that needs one, a malformed or symlinked file
// (the error names file:line and the repair).
Result<Plan> PlanInstall(std::string_view agent, const std::string& project,
                         Scope scope = Scope::kProject, const std::string& home = "");

// Whether the agent reads lore's entries in `project` at all (docs/agents.md
// "Trusted folders"): Codex reads a project's .codex/ only in a folder
// trusted in ~/.codex/config.toml (`[projects."<path>"]` with `trust_level =
// "trusted"`, for the folder or the root of its git checkout); Gemini CLI
// starts no MCP server in a folder not trusted in ~/.gemini/trustedFolders.json
// (`{"<path>": "TRUST_FOLDER"}`; TRUST_PARENT trusts the path's parent,
// DO_NOT_TRUST refuses; the longest matching rule wins), its user settings'
// servers included, unless ~/.gemini/settings.json turns folder trust off
// (security.folderTrust.enabled false). `codex_home` is Codex's folder
// (CODEX_HOME; empty: ~/.codex). Reads only; lore init never writes trust.
struct Trust {
  bool needed = false;   // this agent and scope read lore's entries only in a trusted folder
  bool trusted = false;  // needed and trusted, or not needed
  std::string file;      // where the trust is kept: "~/.codex/config.toml"
  std::string entry;     // the text that trusts `project` in `file`
  std::string detail;    // when not trusted: what the file says instead
};
Result<Trust> CheckTrust(std::string_view agent, const std::string& project, Scope scope,
                         const std::string& home, const std::string& codex_home = "");

// `lore init claude-code --remove`: the inverse of PlanInstall in one scope,
// writing nothing. Plans to take out exactly what lore init adds (its hooks,
// its permission rule, its MCP server, its review command file, the local
// scope's exclude lines), every other byte of those files kept; a project
// settings or MCP file left as an empty object is removed. Pieces are
// kInstalled where something is removed, kDifferent where lore leaves what
// stands there. The local scope leaves the review command under ~/.claude
// while lore's hooks are in the user scope (which uses it). The other
// agents: the inverse of their PlanInstall (Codex's [mcp_servers.lore] table
// and hooks.json hook, Gemini CLI's hook and server, Cursor's and OpenCode's
// server), a file left with nothing of the person's removed.
Result<Plan> PlanRemove(std::string_view agent, const std::string& project, Scope scope,
                        const std::string& home);

// True when `plan` found any of lore's hooks already there (installed, or in
// lore's earlier form).
bool HasLoreHooks(const Plan& plan);

// The settings files (~/.claude/settings.json, the project's settings.json
// and settings.local.json) whose enabledPlugins turn lore's Claude Code plugin
// ("lore@<marketplace>") on, named as in messages: its hooks and lore init's
// would both run. A file that cannot be read or parsed counts as not naming it.
std::vector<std::string> PluginEnabledIn(const std::string& project, const std::string& home);

// What Apply did to one file.
struct Applied {
  std::string rel;
  std::string backup;    // the backup's path; empty for a new file
  bool removed = false;  // the file was removed (--remove)
};

// Writes every changed file of `plan`: backup first, then the atomic replace
// (or the removal, for a file planned `remove`).
// A file that changed on disk since PlanInstall read it is refused before
// anything of it is written (run lore init again).
Result<std::vector<Applied>> Apply(const Plan& plan, std::chrono::system_clock::time_point now);

// The first executable regular file called `name` in the colon-separated
// `path_env` (an empty entry is `cwd`), as a shell resolves a command; empty
// when there is none.
std::string ResolveOnPath(std::string_view name, std::string_view path_env, const std::string& cwd);

// True when both paths (symlinks followed) are the same file: device and inode.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace lore::agent_setup
