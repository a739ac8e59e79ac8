// The one reporter of every front end (lore, lore-llm, lore-team,
// lore-archive, lore mcp): how an error or a warning reads and which exit code
// it gives. The library never prints: these functions only format a line; the
// executable writes it (src/cli/report.h).
//
//   lore: <what>: <path>[:<line>]; <repair>
//   lore: warning: <what>: <path>[:<line>]; <repair>
//
// One line each, whatever the message holds (newlines become spaces), ending
// in '\n'. Every executable speaks as `lore` (README.md): a verb lore hands to
// lore-llm, lore-team or lore-archive reads as lore's own. Run as seed 003's
// `reviewer-memory` (docs/capture.md), lore speaks as that script:
// "reviewer-memory: " and the script's words, still naming the file, the line
// and the repair.
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::app {

// Exit codes shared by every verb of every executable (some verbs document
// more: `propose` 0-4, hooks always 0, lore-team's kExitTeamOffline).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;      // any lore::Error
inline constexpr int kExitUsage = 2;      // bad arguments
inline constexpr int kExitInternal = 70;  // a bug in lore (the last-resort handler)

// Whose words the messages are; set once, by the main, before anything is
// reported (lore as `reviewer-memory`); kLore otherwise.
enum class Voice { kLore, kReviewerMemory };
void SpeakAs(Voice voice);
Voice Speaking();

// The name every message begins with: "lore" (or "reviewer-memory").
std::string_view Name();

// "<name>: <text>\n" on one line: '\n' and '\r' in `text` become spaces.
std::string Line(std::string_view text);

// "lore: <e.Format()>\n" (as reviewer-memory: the script's words).
std::string ErrorLine(const Error& e);
// "lore: warning: <e.Format()>\n".
std::string WarningLine(const Error& e);

// `e` in seed 003's script's words ("symlinked store path is not allowed:
// <path>; replace it with a regular path, then retry"), still naming the
// file, the line where there is one, and the repair; without the prefix.
std::string ReviewerMemoryMessage(const Error& e);

// The exit code an error gives: kExitError, whatever its code.
int ExitCode(const Error& e);

}  // namespace lore::app
