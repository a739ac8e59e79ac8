// How hook payloads are read.
#pragma once

#include <string>

#include "lore/error.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::hook {

// A hook payload is one strict JSON object of at most 16 MiB (a PreToolUse
// payload holds the tool's input: a Write of a whole file) nested at most 64
// deep. Anything else is one warning line; hooks always exit 0.
json::Limits PayloadLimits();

// The payload's session_id through the gate of session ids
// (activity::CheckSessionId): "" when absent or not a string, the id as lore
// keeps it (secrets replaced), or the Error that refuses it (a control
// character, longer than 200 bytes, '/' or ".."), which a hook reports as its
// warning line before it goes on without the id.
Result<std::string> PayloadSessionId(const Json& payload);

}  // namespace lore::hook
