// One line of an agent transcript (Claude Code's JSONL, FORMATS.md section
// 10) as the events Phase 1 extraction cares about.
//
// A line gives zero or more events: what the person typed, what the agent
// said, the tools it called and the tools' answers. Everything else (progress,
// snapshots, thinking, system lines, harness text, the compaction summary,
// unknown types) gives none and is classified, so that the caller can count it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lore::extract {

enum class EventKind {
  kPersonText,     // a user line the person typed
  kAssistantText,  // the agent's words
  kToolUse,        // the agent called a tool
  kToolResult,     // a tool's answer (in a user line)
};

struct Event {
  EventKind kind = EventKind::kPersonText;
  int64_t line = 0;
  bool sidechain = false;
  std::string text;                  // person/assistant text; a tool result's text (bounded)
  std::string tool_name;             // kToolUse: Bash, Edit, ExitPlanMode, AskUserQuestion, ...
  std::string tool_id;               // kToolUse: id; kToolResult: tool_use_id
  std::string detail;                // kToolUse: Bash command, file path, plan, questions (as JSON)
  bool is_error = false;             // kToolResult
  std::optional<int64_t> exit_code;  // kToolResult from toolUseResult, when given
};

inline Event MakeEvent(EventKind kind, int64_t line, bool sidechain = false,
                       std::string text = {}) {
  Event e;
  e.kind = kind;
  e.line = line;
  e.sidechain = sidechain;
  e.text = std::move(text);
  return e;
}

enum class LineClass {
  kUsed,       // gave events
  kQuiet,      // a known line type with nothing for extraction (progress, thinking, …)
  kHarness,    // a user line injected by the harness (isMeta, wrappers, compaction summary)
  kUnknown,    // an unknown `type`: skipped
  kMalformed,  // not JSON, invalid UTF-8, or not an object
};

struct ParsedLine {
  LineClass cls = LineClass::kQuiet;
  std::string session_id;  // the line's sessionId, when it has one
  bool sidechain = false;  // isSidechain
  std::vector<Event> events;
};

// How much of a tool result's text an event keeps (its first bytes).
inline constexpr size_t kMaxResultText = 4096;

// Parses one transcript line (without its '\n') numbered `number`.
ParsedLine ParseTranscriptLine(std::string_view text, int64_t number);

// True when `text` (a user turn's text) was written by the harness rather
// than typed: command wrappers, local command output, the compaction summary,
// interruption notices.
bool IsHarnessText(std::string_view text);

}  // namespace lore::extract
