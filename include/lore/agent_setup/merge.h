// Merging lore's pieces into an agent's JSON settings files (pure functions:
// text in, a document out, nothing read from or written to disk).
//
// Claude Code reads hooks from `.claude/settings.json`
//   {"hooks": {"<Event>": [{"matcher": "...", "hooks": [{"type": "command",
//                                                          "command": "...", "timeout": 10}]}]}}
// and MCP servers from `.mcp.json` {"mcpServers": {"<name>": {"command", "args"}}}.
// A merge adds only what is missing: every other key, hook and matcher stays
// where it is, in its order (the documents are parsed with json::ParseOrdered).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::agent_setup {

// What a file holds of one piece lore installs.
enum class PieceState {
  kInstalled,  // present as lore writes it
  kMissing,    // absent: a merge adds it
  kDifferent,  // something else stands there (an old lore path, another matcher,
               // a customised server): reported, never changed or duplicated
};

std::string_view StateName(PieceState s);  // "installed", "missing", "different"

struct Piece {
  std::string file;  // relative to the project: ".claude/settings.json"
  std::string name;  // "hook SessionStart", "mcp server lore", "command lore-review"
  PieceState state = PieceState::kMissing;
  std::string detail;  // for kDifferent: what stands there instead
};

// One hook lore installs: `command` ("lore hook <event>") under `event`, in a
// group with `matcher` (empty: no matcher key). A hook with a `word` starts
// lore only for a payload that holds it: the shell reads the payload and
// exits 0 without starting a program when the word is not in it. A hook with
// an `if_rule` is written with Claude Code's `if` field (a permission rule the
// tool call must match, Claude Code 2.1.85 and later): the client does not
// start the hook at all for a call the rule does not match; an earlier client
// ignores the field and the shell's test of the word does the same work.
struct HookSpec {
  std::string_view event;
  std::string_view matcher;
  std::string_view command;
  std::string_view word = {};
  std::string_view if_rule = {};
};

// lore's hooks for Claude Code, in the order they are added.
const std::vector<HookSpec>& ClaudeCodeHooks();

// The command line written for `spec`: it exits 0, silently, on a machine
// without lore on PATH (a teammate without lore, or lore uninstalled), and is
// `exec lore hook <event>` otherwise:
//   command -v lore >/dev/null 2>&1 || exit 0; exec lore hook session-start
// A spec with a `word` first reads the payload in the shell (its lines joined
// by spaces: white space between JSON tokens) and exits 0 unless it holds the
// word; else it hands the payload on:
//   p=; while IFS= read -r l || [ -n "$l" ]; do p="$p$l "; done;
//   case $p in *propose*) ;; *) exit 0;; esac;
//   command -v lore >/dev/null 2>&1 || exit 0;
//   printf '%s\n' "$p" | exec lore hook pre-tool-use
// Claude Code runs it with /bin/sh -c.
std::string HookCommand(const HookSpec& spec);

// The forms an earlier lore wrote for `spec` that `lore init` replaces in
// place and `lore init --remove` takes out: the bare "lore hook <event>", and
// for a spec with a `word` the guarded form without the shell's test.
std::vector<std::string> EarlierHookCommands(const HookSpec& spec);

// The seconds Claude Code waits for each lore hook.
inline constexpr int kHookTimeoutSeconds = 10;

struct MergeResult {
  Json doc;                         // the merged document
  std::optional<std::string> text;  // a file that is not JSON: its merged text
  std::vector<Piece> pieces;        // each piece's state before the merge
  bool changed = false;             // true when something was added
};

// The hooks lore installs for the other agents with hooks (Codex, Gemini CLI):
// SessionStart only. Their transcripts are not Claude Code's, which lore's
// capture hooks read, so only the briefing is given at session start.
const std::vector<HookSpec>& SessionStartHooks();

// The permission rule that lets Claude Code call every tool of the MCP
// server named lore without a prompt (Claude Code's rule syntax: mcp__<server>
// for all of a server's tools, mcp__<server>__<tool> for one). MergeSettings
// appends it to `permissions.allow` (piece "permission mcp__lore"): without
// it a headless session (`claude -p`) is denied every lore tool, and an
// interactive one asks once per tool.
inline constexpr std::string_view kLorePermission = "mcp__lore";

// Merges lore's hooks and kLorePermission into the settings file `text`
// (empty or white space only: a file that does not exist yet). `path` names the file in errors
// (with the line of the offending key) and `rel` in the pieces. An error when
// the text is not JSON, not an object, or `hooks` (or one of lore's events
// below it), `permissions` or `permissions.allow` does not have the shape
// Claude Code reads.
Result<MergeResult> MergeSettings(std::string_view text, const std::string& path,
                                  const std::string& rel);
// The same merge for the hooks `specs` (Codex's hooks.json and Gemini CLI's
// settings.json read hooks in Claude Code's shape), each with `timeout` in
// the agent's unit: seconds for Claude Code and Codex, milliseconds for
// Gemini CLI (kGeminiHookTimeoutMs).
Result<MergeResult> MergeHooks(std::string_view text, const std::string& path,
                               const std::string& rel, const std::vector<HookSpec>& specs,
                               int timeout = kHookTimeoutSeconds);
inline constexpr int kGeminiHookTimeoutMs = kHookTimeoutSeconds * 1000;

// Codex's config.toml: `[mcp_servers.lore]` with command "lore" and args
// ["mcp"] appended when there is none; every byte before it kept (the result
// is `text`). Malformed TOML, an mcp_servers that is not a table, or one
// written inline are refused with the line.
Result<MergeResult> MergeCodexConfig(std::string_view text, const std::string& path,
                                     const std::string& rel);

// OpenCode's opencode.json: `mcp.lore = {"type": "local", "command": ["lore",
// "mcp"], "enabled": true}` ("$schema" added to a new file).
Result<MergeResult> MergeOpencode(std::string_view text, const std::string& path,
                                  const std::string& rel);

// lore as a Claude Code plugin (share/claude-code/, the plugin's root): the
// files whose content comes from the table above, so that the plugin and
// `lore init` never differ. A plugin's hook runs `lore` from PATH, else the
// plugin's own bin/lore, else does nothing (exit 0):
//   command -v lore >/dev/null 2>&1 && exec lore hook stop;
//   [ -x "${CLAUDE_PLUGIN_ROOT}/bin/lore" ] && exec "${CLAUDE_PLUGIN_ROOT}/bin/lore" hook stop;
//   exit 0
std::string PluginHookCommand(const HookSpec& spec);
// hooks/hooks.json: {"hooks": {<event>: [{matcher?, hooks: [{type, command, timeout}]}]}}.
std::string PluginHooksFile();
// .mcp.json: the server, run the same way.
std::string PluginMcpFile();

// Merges lore's hooks as MergeSettings does. A hook in lore's earlier form
// (the bare "lore hook <event>", which fails where lore is missing) is
// replaced in place by HookCommand's form (reported kDifferent, changed).

// Merges `mcpServers.lore = {command: "lore", args: ["mcp"]}` into the MCP
// file `text`; the same rules as MergeSettings. `at` is the path of object
// keys to the object holding "mcpServers": empty for .mcp.json and for the
// user scope of ~/.claude.json, {"projects", "<project's absolute path>"} for
// its local scope. Missing objects on the way are created.
Result<MergeResult> MergeMcp(std::string_view text, const std::string& path, const std::string& rel,
                             const std::vector<std::string>& at = {});

// The inverses, for `lore init --remove`: lore's own entries taken out of
// the file `text`, every other key, rule, hook and server kept in its order.
// UnmergeSettings removes every hook whose command is lore's (HookCommand's
// form or the earlier bare one), a group left with no hook and an event left
// with no group, and the rule kLorePermission from permissions.allow (an
// `allow`, `permissions` or `hooks` left empty by that goes too); a piece is
// kInstalled when something of it was removed. UnmergeMcp removes
// mcpServers.lore when it is lore's server (another stays, kDifferent), and
// then an mcpServers, and objects on the way `at` below the top, left empty. The same
// shape errors as the merges.
Result<MergeResult> UnmergeSettings(std::string_view text, const std::string& path,
                                    const std::string& rel);
Result<MergeResult> UnmergeMcp(std::string_view text, const std::string& path,
                               const std::string& rel, const std::vector<std::string>& at = {});
// The hooks `specs` taken out as UnmergeSettings takes out Claude Code's
// (Codex's hooks.json, Gemini CLI's settings.json).
Result<MergeResult> UnmergeHooks(std::string_view text, const std::string& path,
                                 const std::string& rel, const std::vector<HookSpec>& specs);
// Codex's config.toml: the table MergeCodexConfig appends, taken out where it
// stands as lore wrote it (with the blank line before it), every other byte
// kept; lore's server changed since (another key, another value) is kDifferent
// and stays. `text` of the result is the file's new text.
Result<MergeResult> UnmergeCodexConfig(std::string_view text, const std::string& path,
                                       const std::string& rel);
// OpenCode's opencode.json: mcp.lore when it is lore's server, then an "mcp"
// left empty, then the "$schema" lore adds to a file it creates when nothing
// else is left.
Result<MergeResult> UnmergeOpencode(std::string_view text, const std::string& path,
                                    const std::string& rel);

// `doc` as Claude Code writes its files: 2-space indentation, non-ASCII kept,
// a trailing newline.
std::string Render(const Json& doc);

}  // namespace lore::agent_setup
