// The agent hooks (`lore hook <event>`, docs/agents.md) as use cases: what
// each event reads and writes, and which detached runs it asks for. The front
// end reads the payload, prints what these return and starts the runs (the
// library never forks); a hook always exits 0, so an Error here is one
// warning line and the agent goes on.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lore/app/recall.h"
#include "lore/error.h"
#include "lore/hook/session.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// Whether the warning of `cause` (a fixed word, "stdin-over-cap") is this
// session's first: the session named in `payload_head`, the first bytes of a
// payload too large to read. Said once per session, not on every hook call.
bool FirstHookWarning(std::string_view cause, std::string_view payload_head, text::TimePoint now);

// The payload's fields, read leniently (hook::ParsePayload).
hook::Payload ParseHookPayload(std::string_view input, std::optional<Error>* problem);

// PreToolUse: a shell call of `lore propose` recorded in events.jsonl of the
// store of the payload's cwd (`process_cwd` when it has none); `wave` is
// LORE_WAVE. Returns whether an event was written.
Result<bool> AuditToolUse(std::string_view payload, std::string_view wave,
                          std::string_view process_cwd, text::TimePoint now);

// SessionStart: the JSON to print (the briefing as additional context; ""
// when the store holds nothing worth saying), and the checkout whose code
// symbols are to be rebuilt (`lore reindex <top> --symbols`, detached) when
// its HEAD moved since they were read.
struct SessionStartAnswer {
  std::string json;
  std::optional<CheckoutAt> symbols;
};
Result<SessionStartAnswer> StartSession(const store::Store& store, std::string_view source,
                                        const std::string& repo);

// PreCompact and SessionEnd: `<lore> extract … --then-consolidate` of what
// the transcript holds past the session's cursor; an empty command when the
// payload names no transcript or nothing is new (then FlushRun is what is left).
Result<hook::Command> ExtractThenConsolidateRun(const store::Store& store,
                                                const std::string& lore_binary,
                                                std::string_view repo,
                                                const hook::Payload& payload);

// `<lore> consolidate <repo> --flush --foreground`; empty when nothing is staged.
Result<hook::Command> FlushRun(const store::Store& store, const std::string& lore_binary,
                               std::string_view repo);

// Stop (after each agent turn): `<lore> extract …` once the transcript grew
// past memory.extract_threshold bytes since the cursor; else empty.
Result<hook::Command> StopRun(const store::Store& store, const std::string& lore_binary,
                              std::string_view repo, const hook::Payload& payload);

// SessionEnd: recall forgets which files the session was told about, and the
// reminder of pending proposals to print ({"systemMessage": …}; "" when none wait).
Result<std::string> EndSession(const store::Store& store, std::string_view repo,
                               std::string_view session_id);

}  // namespace lore::app
