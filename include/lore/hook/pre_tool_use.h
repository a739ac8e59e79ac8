// The PreToolUse audit hook (docs/proposals.md and docs/agents.md): for a shell
// command that runs `lore propose`, one event line goes to the store's
// events.jsonl with the values of --insight, --subject, --evidence,
// --content and --reason replaced by [REDACTED]. The hook only observes: it
// never blocks and its callers always exit 0.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/hook/shell_words.h"
#include "lore/json/value.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::hook {

inline constexpr size_t kArgvMax = 512;  // code points kept of the redacted command

// True when some command of `words` runs a program named `lore` (any
// directory; after NAME=value assignments and env/sudo/command/exec/nohup/
// time/nice) with the verb `propose`.
bool InvokesPropose(const std::vector<Word>& words);

// `command` with the value of every sensitive flag replaced by [REDACTED]:
// --flag=value, --flag="…", --flag='…', --flag value, --flag "…", --flag '…'.
std::string Redact(std::string_view command);

// The wave of the propose call: its --wave flag, else a LORE_WAVE=…
// assignment in the command, else `env_wave`; nullopt when none.
std::optional<std::string> WaveOf(const std::vector<Word>& words, std::string_view env_wave);

// The event for hook payload `payload`, or nullopt when it is not a shell
// command running `lore propose`. `process_cwd` stands in for a payload
// without "cwd". Every string of it has passed the redactor (docs/secrets.md):
// the command after Redact, the session id, the wave and the cwd. The session
// id passes the gate of ids (hook/payload.h): one it refuses is null.
std::optional<Json> ProposeEvent(const Json& payload, std::string_view env_wave,
                                 std::string_view process_cwd, text::TimePoint now);

// How long the hook waits for the lock of events.jsonl: a few milliseconds,
// never the agent's hook timeout. Past it the event is not written (kBusy);
// the writer that holds the lock loses nothing.
inline constexpr std::chrono::milliseconds kEventsLockWait{5};

// Handles one PreToolUse payload (the bytes of standard input): when it is
// a propose call, appends the event to events.jsonl of the store of the
// payload's cwd (creating the store if needed). Returns whether an event was
// written.
Result<bool> RecordPreToolUse(std::string_view payload, const store::Env& env,
                              std::string_view env_wave, std::string_view process_cwd,
                              text::TimePoint now);

}  // namespace lore::hook
