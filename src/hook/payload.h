// How hook payloads are read.
#pragma once

#include "lore/json/reader.h"

namespace lore::hook {

// A hook payload is one strict JSON object of at most 16 MiB (a PreToolUse
// payload holds the tool's input: a Write of a whole file) nested at most 64
// deep. Anything else is one warning line; hooks always exit 0.
json::Limits PayloadLimits();

}  // namespace lore::hook
