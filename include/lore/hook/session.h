// The session hooks (docs/agents.md): what `lore hook session-start`,
// `pre-compact` and `session-end` do. The CLI prints what these return and
// always exits 0; a store that cannot be read is an Error the CLI turns into
// one line on stderr (the hooks fail open: the agent goes on without memory).
// None of them opens SQLite or parses YAML: they stay within a couple of
// milliseconds.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::hook {

// The fields of a hook payload the session hooks use.
struct Payload {
  std::string cwd;      // the agent's working directory; empty when absent
  std::string source;   // SessionStart: startup | resume | clear | compact
  std::string trigger;  // PreCompact: manual | auto
  std::string session_id;
  std::string transcript_path;  // the agent's session transcript; empty when absent
  std::string prompt;           // UserPromptSubmit: what the person typed
  std::string tool_name;        // PreToolUse, PostToolUse
  std::string file_path;        // tool_input.file_path (or notebook_path) of a file tool
};

// Reads a payload leniently: empty input gives an empty Payload; input that
// is not a JSON object also does, with `*problem` saying why. A session_id
// that the gate of session ids refuses (hook/payload.h: a control character,
// longer than 200 bytes, '/' or "..") is left out, with `*problem` saying
// why; one holding a secret is kept with the secret replaced.
Payload ParsePayload(std::string_view input, std::optional<Error>* problem);

// `s` as one word of a POSIX shell: bare when it holds only characters no
// shell treats specially, else in single quotes (a quote as '\'').
std::string ShellWord(std::string_view s);

// How many proposals wait in proposals.jsonl (a missing queue is empty).
Result<int64_t> PendingProposals(const store::Store& store);

// The additional context for SessionStart: the pointer to okf/index.md, the
// head of memory/summary.md and the count of pending proposals; after a
// compaction (`source` "compact") also the digest itself and more of the
// summary, since the model has just lost them. Empty when the store does not
// exist or holds nothing worth saying. `repo` is how the agent names the
// repository in commands (its cwd). Invalid UTF-8 in the summary is replaced;
// a summary that cannot be read at all is one line in place of the briefing,
// the rest still given.
Result<std::string> SessionStartContext(const store::Store& store, std::string_view source,
                                        std::string_view repo);

// The JSON object SessionStart prints for `context`:
// {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}.
std::string SessionStartJson(std::string_view context);

// What a hook prints to hand `context` to the agent:
// {"hookSpecificOutput":{"hookEventName":<event>,"additionalContext":<context>}}, compact, a
// byte that is not UTF-8 written as U+FFFD (what nlohmann's dump with its replace handler writes,
// by a writer that copies runs where that one escapes byte by byte: the hooks print kilobytes).
std::string ContextJson(std::string_view event, std::string_view context);

// Whether a hook's warning of `cause` (a fixed word, "stdin-over-cap") is the
// first of its kind in the session `session_id`, or, with no session id, the
// first of the UTC day of `now`: the first call records it (an empty file
// under `<cache root>/warned/`, named by a hash of both, store::CacheRoot)
// and returns true, every later one false. True when nothing can be
// recorded: a warning is repeated rather than lost.
bool FirstWarning(const store::Env& env, std::string_view cause, std::string_view session_id,
                  std::chrono::system_clock::time_point now);

// The session id a payload too large to parse names in its first bytes
// `head`: the string of its first "session_id" key, through the gate of
// session ids (escapes taken as they are); "" when there is none.
std::string SessionIdInHead(std::string_view head);

// A program and its arguments for the hook to start detached (the library
// decides what to run; src/cli/ starts it). Empty: nothing to start.
using Command = std::vector<std::string>;

// PreCompact: `<lore> consolidate <repo> --flush --foreground`, so that what
// the session staged is consolidated before the context is lost. Empty when
// the store does not exist or nothing is staged.
Result<Command> FlushCommand(const store::Store& store, const std::string& lore_binary,
                             std::string_view repo);

// PreCompact, SessionEnd and Stop: `<lore> extract <repo> --transcript
// <transcript_path> [--session <session_id>] [--then-consolidate]`, or an
// empty command when the transcript grew by less than `min_growth_bytes`
// past the session's cursor (1: nothing new; Stop passes
// memory.extract_threshold): nothing to start. The growth is checked first,
// so that a call that starts nothing costs one stat and one small read. A
// transcript that is missing, unreadable or not a regular file, or a store
// that exists but fails its checks, is an Error (one warning line for the
// hook): nothing is to be started.
Result<Command> ExtractCommand(const store::Store& store, const std::string& lore_binary,
                               std::string_view repo, const Payload& payload, bool then_consolidate,
                               int64_t min_growth_bytes = 1);

// Whether the transcript grew by at least `threshold_bytes` past the
// session's extract cursor (a transcript never extracted counts whole). One
// stat and one small read; no transcript line is parsed.
Result<bool> TranscriptGrown(const store::Store& store, const Payload& payload,
                             int64_t threshold_bytes);

// SessionEnd: a reminder of pending proposals as {"systemMessage": …} (shown
// to the person, not the model); empty when none wait. It names the command
// that reviews them, runnable as printed: `lore review <repo> --session <id>`
// with both words quoted for a POSIX shell (the payload's session id; a
// blank one gives "manual-review").
Result<std::string> SessionEndReminder(const store::Store& store, std::string_view repo,
                                       std::string_view session_id = {});

}  // namespace lore::hook
