// Private spans and secrets removed from JSON: parsed values and the lines
// of a JSON Lines file that another program wrote (docs/secrets.md).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include "lore/json/value.h"

namespace lore::redact {

// The filter of json::CompactObjectWith that keeps secrets out of a line:
// a key or an array element is Clean'ed, a member's value CleanNamedValue'd
// with the member's name. Returns true and sets `*out` when the string
// changes.
bool CleanJsonString(std::string_view name, std::string_view value, std::string* out);

// Cleans every key and string of `value` in place, as CleanJsonString does;
// a key replaced like another key of its object gets "~2", "~3", ... Returns
// whether anything changed.
bool CleanJson(Json* value);

// A line of a JSON Lines file (without its '\n') as lore may write it
// again: the same bytes when nothing is found in it; else, when it is a JSON
// object (the Python dialect of json::ForeignLogLine), its compaction with
// keys and strings cleaned; else Clean of its text.
std::string CleanJsonLine(std::string_view line);

}  // namespace lore::redact
