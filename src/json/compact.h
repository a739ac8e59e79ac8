// Compact re-emission of a JSON text that keeps the caller's bytes.
//
// A captured record must say exactly what the caller sent: numbers stay as
// written (123456789012345678901234567890 is not turned into 1.2e+29), keys
// keep their order and their spelling, strings keep their escapes. Only the
// white space between tokens is removed, and the code points U+0085, U+2028
// and U+2029 written raw inside strings are escaped (\u0085, \u2028,
// \u2029): Python's str.splitlines() breaks lines at them, so a reader of the
// log that splits that way would see a torn line.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lore/error.h"
#include "lore/json/reader.h"

namespace lore::json {

// A top-level member to set: `key` (plain text, no escapes needed) and the
// compact JSON text of its value.
struct Member {
  std::string key;
  std::string value_json;
};

// Rewrites strings on the way (the redaction of captures): called with the
// name of the member the string is the value of (empty for an array element
// and for a key) and the string's decoded text; returns true and sets `*out`
// to replace it (written with Quote), false to keep the caller's bytes. Keys
// are passed too (a replaced key that equals another key of its object gets
// "~2", "~3", ...); numbers, the keys set by `members` and their values are
// never passed.
using StringFilter =
    std::function<bool(std::string_view name, std::string_view value, std::string* out)>;

// Compacts the JSON object `text` (read with `limits`) and sets each of
// `members`: an existing key keeps its position and gets the new value, a
// missing one is added at the end in the order given. An error when `text` is
// not an object within the limits. The result holds no '\n'.
Result<std::string> CompactObjectWith(std::string_view text, const Limits& limits,
                                      const std::vector<Member>& members, const Source& source = {},
                                      const StringFilter* filter = nullptr);

// Compacts any JSON value `text` the same way.
Result<std::string> Compact(std::string_view text, const Limits& limits, const Source& source = {});

// `s` (valid UTF-8) as a JSON string literal: quotes, escapes for '"', '\\'
// and control characters, U+0085/U+2028/U+2029 escaped, other non-ASCII kept.
std::string Quote(std::string_view s);

}  // namespace lore::json
