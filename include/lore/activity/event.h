// What happened in an agent's session, one event at a time: what the person
// typed, what the agent said, the tools it called and what they came to,
// compactions and interruptions. Phase 1 reads events off a transcript
// (extract/transcript.h) and keeps them in the session log
// (activity/session_log.h); the rules that read outcomes and lessons off them
// (activity/episodes.h, activity/outcomes.h) work on either.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lore::activity {

enum class EventKind {
  kPersonText,     // a user line the person typed (or a command they ran)
  kAssistantText,  // the agent's words
  kToolUse,        // the agent called a tool
  kToolResult,     // a tool's answer (in a user line)
  kCompaction,     // the summary a compaction handed to the next context
  kInterrupt,      // the person interrupted the agent
};

// What a tool call came to (activity/clean.h reads it off the result).
enum class ResultStatus {
  kOk,
  kFailed,       // an error, or an exit code other than 0
  kRejected,     // the person declined the call (never a failure)
  kInterrupted,  // the person interrupted it, or it was cancelled
  kDenied,       // the harness's permission settings refused it
};

struct Event {
  EventKind kind = EventKind::kPersonText;
  int64_t line = 0;
  bool sidechain = false;
  std::string at;         // the line's time stamp, RFC 3339 seconds; empty when it has none
  std::string text;       // person/agent/compaction text; a tool result's output (bounded);
                          // a file-writing call's change (the new text)
  std::string tool_name;  // kToolUse, kToolResult: Bash, Edit, ExitPlanMode, AskUserQuestion, ...
  std::string tool_id;    // kToolUse: id; kToolResult: tool_use_id
  std::string detail;     // kToolUse: command, file path, plan, questions (JSON), todo list, ...
  std::string note;       // kToolUse: the agent's description of the call, when it gave one
  ResultStatus status = ResultStatus::kOk;  // kToolResult
  std::string reason;                       // kToolResult rejected: the person's words, if any
  std::optional<int64_t> exit_code;         // kToolResult from toolUseResult, when given
  std::string about;    // kToolResult of a read of a README or manifest, as logged: what the
                        // project says it is (activity/about.h)
  std::string defines;  // kToolUse of a file-writing call, as logged: the names its new
                        // text defines, ", " between them (activity/defines.h)

  bool failed() const { return kind == EventKind::kToolResult && status == ResultStatus::kFailed; }
};

// Claude Code's tools that write a file (Edit, Write, MultiEdit, NotebookEdit).
inline bool IsFileEditTool(std::string_view name) {
  return name == "Edit" || name == "Write" || name == "MultiEdit" || name == "NotebookEdit";
}

inline Event MakeEvent(EventKind kind, int64_t line, bool sidechain = false,
                       std::string text = {}) {
  Event e;
  e.kind = kind;
  e.line = line;
  e.sidechain = sidechain;
  e.text = std::move(text);
  return e;
}

std::string_view StatusName(ResultStatus status);  // ok, failed, rejected, interrupted, denied
std::optional<ResultStatus> ParseStatus(std::string_view name);

}  // namespace lore::activity
