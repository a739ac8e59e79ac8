// One line of an agent transcript (Claude Code's JSONL, docs/extract.md)
// as the events Phase 1 extraction cares about.
//
// A line gives zero or more events: what the person typed, what the agent
// said, the tools it called and the tools' answers, the summary a compaction
// left and the person's interruptions. Everything else (progress, snapshots,
// thinking, system lines, harness text, unknown types) gives none and is
// classified, so that the caller can count it.
//
// Every text an event carries is already clean: private spans and secrets
// removed, ANSI escapes and control characters dropped, the harness's
// reminders and instructions cut out (activity/clean.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/activity/event.h"

namespace lore::extract {

using activity::Event;
using activity::EventKind;
using activity::MakeEvent;
using activity::ResultStatus;

enum class LineClass {
  kUsed,       // gave events
  kQuiet,      // a known line type with nothing for extraction (progress, thinking, …)
  kHarness,    // a user line injected by the harness (isMeta, wrappers, compaction summary)
  kUnknown,    // an unknown `type`: skipped
  kMalformed,  // not JSON, invalid UTF-8, or not an object
};

// The bounds of a line's gitBranch and cwd, in bytes (a longer one is cut).
inline constexpr size_t kMaxBranchBytes = 256;
inline constexpr size_t kMaxCwdBytes = 1024;

struct ParsedLine {
  LineClass cls = LineClass::kQuiet;
  // The line's sessionId as written, when it has one: extract::SessionOf
  // passes the one it takes through the gate of session ids.
  std::string session_id;
  // gitBranch and cwd, when the line has them, cleaned as one-line fields
  // (activity::CleanLine: secrets and private spans removed, escapes and
  // control characters dropped, cut to the bounds above).
  std::string branch;
  std::string cwd;
  std::string at;          // timestamp, RFC 3339 seconds, when it has a valid one
  bool sidechain = false;  // isSidechain
  std::vector<Event> events;
};

// How much of a tool result's text an event keeps (its first and last bytes:
// a command's verdict is often its last line).
inline constexpr size_t kMaxResultText = 4096;

// Parses one transcript line (without its '\n') numbered `number`.
ParsedLine ParseTranscriptLine(std::string_view text, int64_t number);

// True when `text` (a user turn's text) was written by the harness rather
// than typed: command wrappers, local command output, the compaction summary,
// interruption notices.
bool IsHarnessText(std::string_view text);

}  // namespace lore::extract
