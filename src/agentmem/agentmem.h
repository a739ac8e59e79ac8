// What coding agents wrote down themselves about a project, read (never
// written) from their own files, fact by fact (docs/agents.md, "What the
// agents remember themselves"):
//   Claude Code's auto memory   ~/.claude/projects/<project path, every character
//                               but [A-Za-z0-9] as '-'>/memory/*.md: a topic file
//                               with frontmatter is one fact; MEMORY.md's own
//                               bullets (not its links to topic files) are facts
//   the instruction files       CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md,
//                               QWEN.md, GEMINI.md, AGENTS.md of the project: the
//                               bullets of their memory sections (a heading naming
//                               memory, memories, notes, lessons, learnings, gotchas,
//                               or "... Added Memories" as Qwen Code and Gemini CLI
//                               write it)
//   Codex's memories            ~/.codex/memories/MEMORY.md: the bullets of the
//                               sections that name this project's folder
// Markdown is read as CommonMark writes bullets ("-", "*", "+", "1." or "1)"),
// fenced code blocks skipped, a bullet's continuation lines and nested
// bullets joined to it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

namespace lore::agentmem {

struct Fact {
  std::string text;    // white space squeezed to single spaces
  std::string title;   // a topic file's name or description; else empty
  std::string agent;   // "claude-code", "codex", "qwen-code", "gemini-cli"
  std::string origin;  // "Claude Code's auto memory", "CLAUDE.md", ...
  std::string path;    // where it was read (absolute)
  int64_t line = 0;    // 1-based line of the fact in `path`
};

// The bullets of `text` (from `path`), each one fact; with `sections_only`
// only those under a heading that names memory (see above), and with
// `mentioning` non-empty only those of sections whose heading or text holds
// it. Facts get `agent` and `origin` as given.
std::vector<Fact> Bullets(std::string_view text, bool sections_only, std::string_view mentioning);

// A Claude Code auto-memory topic file: its body as one fact (titled by the
// frontmatter's name or description), or its bullets when it has no
// frontmatter.
std::vector<Fact> TopicFile(std::string_view text);

// The folder of Claude Code's auto memory for `project` under `home`.
std::string ClaudeMemoryFolder(const std::string& home, const std::string& project);

// Every fact the agents wrote about `project` (an absolute path), in a fixed
// order: Claude Code's auto memory, the instruction files, Codex. A source
// that is missing is skipped; one that cannot be read (a permission, a file
// over 8 MiB, invalid UTF-8 replaced) is an error naming it.
Result<std::vector<Fact>> Read(const std::string& project, const std::string& home);

}  // namespace lore::agentmem
