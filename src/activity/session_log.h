// The permanent session log: `sessions/<session>.jsonl` (docs/extract.md).
//
// Claude Code deletes its transcripts after 30 days; the session log keeps
// what was said and done, compact and redacted, for good. Each extract run
// appends the events of the lines it read, then one `span` line naming
// those lines, in one write (log::AppendLines):
//
//   {"turn":"person","line":12,"at":"2026-01-16T02:40:23Z","text":"please run …"}
//   {"turn":"agent","line":16,"at":"…","text":"I'll run a comprehensive …"}
//   {"turn":"tool","line":21,"at":"…","tool":"Bash","id":"ABcd1234","input":"sw_vers","note":"…"}
//   {"turn":"result","line":27,"at":"…","id":"ABcd1234","status":"failed","exit":1,"text":"…"}
//   {"turn":"compaction","line":90,"at":"…","text":"…"}
//   {"turn":"interrupt","line":148,"at":"…"}
//   {"turn":"span","session_id":"…","lines":[1,199],"started_at":"…","ended_at":"…",
//    "branch":"main","cwd":"…"}
//
// Every text is bounded (LogBuilder's caps: no tool output or file content is
// ever kept whole) and already clean (extract/transcript.h): redacted, without
// escapes, control characters or the harness's words. Sidechain lines (a
// subagent's own steps) are not logged. The log is what `lore extract
// --rebuild` re-derives staged entries from, what `lore search --scope
// sessions` finds, and what the briefing's view of recent sessions is read
// from.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/activity/event.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::activity {

inline constexpr std::string_view kSessionsDir = "sessions";

// The caps of one logged event (bytes of its text or input).
struct LogCaps {
  size_t person = 4000, agent = 4000, compaction = 8000;
  size_t command = 600, input = 300, plan = 2000, questions = 1500, todos = 800, note = 200;
  size_t failure = 600;  // a failed result's telling lines
  size_t output = 400;   // a shell command's output, first and last lines
  size_t answer = 2000;  // a subagent's or the person's answer to a tool
  size_t reason = 400;   // a rejection's reason
  size_t change = 300;   // what a file-writing call wrote: an edit's new text, a file's start
  size_t defines = 400;  // the names that text defines (functions, tests, headings, …)
};

// What one extract run read: the lines, their first and last time stamps,
// and where the session worked.
struct Span {
  int64_t first = 0, last = 0;
  std::string session_id;
  std::string started_at, ended_at;
  std::string branch, cwd;
};

// Turns parsed events into the events kept in the log, in order: sidechain
// events dropped, texts cut to the caps, a result's text chosen by its
// call's tool (a shell command's output kept short, a file's contents never),
// and a search that exits 1 without output told apart from a failure.
class LogBuilder {
 public:
  explicit LogBuilder(LogCaps caps = {}) : caps_(caps) {}
  // The event as logged, or nullopt when it leaves nothing to keep.
  std::optional<Event> Add(const Event& event);

 private:
  struct Call {
    std::string id, tool, detail;
  };
  LogCaps caps_;
  std::deque<Call> calls_;  // calls awaiting their result (bounded)
};

// Cuts the texts of `events` until their log lines together take at most
// `budget` bytes: the calls' inputs, outputs and notes first (to 2,000 bytes,
// 1,000, … 120), then the outputs of calls that worked, then what the agent
// said along the way, last what the person said and the agent's last words
// before the person speaks again. Returns the bytes they take.
size_t FitToBudget(std::vector<Event>& events, size_t budget);

// The bytes a run of `read_bytes` transcript bytes may add to the log:
// 25 % of them, at least 32 KiB.
size_t LogBudget(uint64_t read_bytes);

// One line of the log, and back. ParseLogLine returns false for a line that
// is not a session log line (another turn, not JSON): the caller skips it.
std::string RenderEvent(const Event& event);
std::string RenderSpan(const Span& span);
struct LogLine {
  bool is_span = false;
  Event event;
  Span span;
};
bool ParseLogLine(std::string_view text, LogLine* out);

// The longest session id lore takes, in bytes (Claude Code's are UUIDs, 36).
inline constexpr size_t kMaxSessionIdBytes = 200;

// The gate every session id passes where it enters lore (a hook payload's
// session_id, `lore extract --session`, a transcript line's sessionId):
// refused when it is longer than kMaxSessionIdBytes (as given, or once its
// secrets are replaced), not valid UTF-8, holds a control character (C0,
// DEL, C1: a line break, an escape), '/' or "..", or is blank (once private
// spans are dropped); else returned with secrets replaced (redact::CleanId),
// which is the id lore keeps. `name` is how the
// id was given ("--session"); the Error (kInvalidInput, at `path`) says
// what is wrong with it and never shows it. The empty id (none given) is
// returned as it is: the caller decides what having none means.
Result<std::string> CheckSessionId(std::string_view id, std::string_view name,
                                   const std::string& path);

// The name lore gives a session's files (its session log, its extract
// cursor): the id (secrets in it cleaned, redact::CleanName) when it is plain
// and at most 100 bytes, else its plain characters (60 at most) and a hash of
// the cleaned id.
std::string SessionFileStem(std::string_view session_id);

// The log file of `session_id`.
std::string SessionLogPath(const store::Store& store, std::string_view session_id);

// Appends `events` and then `span` to the session's log (creating
// `sessions/`, 0700, and the file, 0600), skipping the events of lines the
// log already covers: a run that died after its append and is run again
// never logs a line twice. Nothing is written when every line is covered.
Status AppendSessionLog(const store::Store& store, std::string_view session_id, Span span,
                        const std::vector<Event>& events);

// An append killed inside its write(2) (SIGKILL stops a write between pages)
// leaves its batch cut off: some event lines, then part of one, and no span.
// For the open session log `fd` (named `path`): nullopt when its last byte is
// a newline (nothing is unfinished), else the end of its last span line,
// past which the rest is moved into quarantine/ before the next append (and
// by `lore check --repair`). A log.h CutRule.
Result<std::optional<uint64_t>> UnfinishedAppend(int fd, const std::string& path);

// For the open session log `fd`: nullopt when it ends with a span line (or
// is empty), else the end of its last span line (0 when it has none): what
// a log cut anywhere holds past its last whole batch. A log.h CutRule.
Result<std::optional<uint64_t>> AfterLastSpan(int fd, const std::string& path);

// The session log's path inside the store ("sessions/<stem>.jsonl").
std::string SessionLogRel(std::string_view session_id);

// Moves what a cut or a killed append left past the session log's last whole
// batch (UnfinishedAppend's bytes, or with `after_last_span` everything
// after its last span line: AfterLastSpan) into the store's quarantine/
// (store::QuarantineTornTail: nothing is deleted), then returns the last
// transcript line the log covers (0 when there is no log).
Result<int64_t> MendSessionLog(const store::Store& store, std::string_view session_id,
                               bool after_last_span);

// The last transcript line the log covers (0 when none or no log).
Result<int64_t> LoggedThrough(const std::string& path);

// When a session log's session ran, read off its ends only (the first line's
// time stamp and the last span): cheap enough for every log of a store.
struct LogEnds {
  std::string session_id;  // from the file name; empty when it was hashed
  std::string started_at, ended_at;
  int64_t last_line = 0;
};
Result<LogEnds> ReadLogEnds(const std::string& path);

// A whole session log, read in bounded memory per line. Lines that are not
// log lines are counted in `skipped`.
struct SessionLog {
  std::string session_id;
  std::vector<Span> spans;
  std::vector<Event> events;
  int64_t skipped = 0;
};
Result<SessionLog> ReadSessionLog(const std::string& path, std::string_view session_id);

// The session logs of `store`: their session ids (from the first span's
// file name) and paths, sorted by path. A missing folder holds none.
struct SessionFile {
  std::string path;
  std::string stem;  // the file name without ".jsonl"
  int64_t bytes = 0;
};
Result<std::vector<SessionFile>> ListSessionLogs(const store::Store& store);

}  // namespace lore::activity
