// Compact JSON exactly as JavaScript's JSON.stringify writes it, so that a
// line written by lore is byte-for-byte what the original Node.js tool would
// write for the same value, and the reverse.
//
// Differences from nlohmann's dump(): numbers use the ECMAScript
// Number.prototype.toString form (1 not 1.0, 0.00001 not 1e-05, 1e-7 not
// 1e-07, -0 as 0); NaN and infinities become null.
#pragma once

#include <string>

#include "lore/json/value.h"

namespace lore::json {

// The ECMAScript string form of `v` ("0.85", "1", "1e-7", "null" for NaN).
std::string JsNumber(double v);

// `value` as one compact line (no spaces, no trailing newline), non-ASCII
// kept as UTF-8, keys in their stored order. `value` must hold valid UTF-8.
std::string DumpJs(const Json& value);

}  // namespace lore::json
