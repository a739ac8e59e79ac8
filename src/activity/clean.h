// A transcript's text as a person would read it,
// without the harness's words, and what a tool's answer amounts to.
//
// Claude Code writes, beside the person's and the agent's own words, text of
// its own into the transcript: reminders for the model, the instruction it
// appends when the person rejects a tool call, notices of interruptions and
// permission prompts. Tool output keeps the terminal's colour codes and
// control characters. None of it is memory: Phase 1 passes every text it keeps
// through Readable and WithoutHarness, and reads a tool result's outcome with
// Classify (docs/extract.md, "What is kept").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lore/activity/event.h"

namespace lore::activity {

// `text` without ANSI escape sequences (CSI, OSC and two-byte ones) and
// their spellings as text ("\033[1;31m", "\x1b[0m", "\u001b[K"); CR LF and a
// lone CR become LF; other control characters (C0 but tab and LF, DEL, C1)
// are dropped. Invalid UTF-8 is kept as it is (the caller's input is JSON
// text, valid already).
std::string Readable(std::string_view text);

// `text` as one line a person reads: Readable, then every line break and tab
// a space. What lore shows of a field on one line, in a terminal above all:
// no escape sequence or control character of the text reaches it.
std::string ReadableLine(std::string_view text);

// A field of one line from outside that lore keeps (a transcript's gitBranch
// and cwd, a transcript's path): private spans and secrets removed
// (redact::Clean), then ReadableLine, cut to at most `max_bytes` at the end
// of a character (cleaned before it is cut: a cut never hides half a secret).
std::string CleanLine(std::string_view text, size_t max_bytes);

// `text` without the harness's blocks (<system-reminder>, <user-prompt-submit-hook>
// and <task-notification> with their contents, an unclosed one to the end) and
// the instruction sentences Claude Code appends to tool results ("Ensure that
// you continue to use the todo list…", "Read the output file to retrieve the
// result…"). Lines left blank at either end are trimmed.
std::string WithoutHarness(std::string_view text);

// The status of a tool result from its raw text, the block's is_error flag,
// the exit code the harness reported and, for a shell call, its command.
// Not failures: a rejection, an interruption, a permission denial, "nothing
// to commit", and a search or comparison (grep, rg, diff, test, …) that exits
// 1 with no output (no match). `*reason`, when given, receives the person's
// words when they rejected the call with a reason.
ResultStatus Classify(std::string_view text, bool is_error, std::optional<int64_t> exit_code,
                      std::string_view command, std::string* reason = nullptr);

// True when the shell command `command` reported success only because its
// last stage is a pager (`cargo build … 2>&1 | tail -14`: tail's exit code)
// while its output says the build or test run failed (a line starting
// "error:", "error[", "FAILED ", "npm ERR!", "make: ***", a traceback, "…:
// error: …", "test result: FAILED"). Only for builds and test runs
// (activity::OutcomeKind), so a `grep error log | head` stays what it is.
bool MaskedFailure(std::string_view command, std::string_view text);

}  // namespace lore::activity
