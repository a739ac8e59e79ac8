// The one bounded JSON reader: every JSON text that comes from outside lore
// (standard input, hook payloads, MCP messages, log lines, staged entries,
// archive manifests, a model's answers) is read through these functions.
//
// The reader never recurses on the input's nesting and never throws. It
// refuses, with an Error naming the line within the text and the limit:
//   - texts longer than `max_bytes`;
//   - nesting deeper than `max_depth` (arrays and objects together);
//   - numbers written with more than `max_number_chars` characters;
//   - invalid UTF-8, control characters in strings, anything that is not
//     exactly one JSON value (RFC 8259) with optional white space around it;
//   - in the strict dialect: a key repeated within one object, and an escaped
//     UTF-16 surrogate that is not part of a pair.
// Parse additionally refuses, in the strict dialect, a number outside the
// range of a double (1e400): it cannot be represented in memory. Check and
// Compact keep numbers as text and accept any number the grammar allows.
//
// The Python dialect reads what Python's json module accepts, so that a log
// written by another program (reviewer-memory) is read, not refused: the
// literals NaN, Infinity and -Infinity, numbers of any magnitude (as +-inf or
// 0 in memory), lone surrogate escapes (as U+FFFD in memory), and repeated
// keys (the last value wins, at the first key's position, as in Python).
// The JavaScript dialect reads what JSON.parse accepts (a queue written by
// the original Node.js tool): the Python dialect without its three literals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::json {

enum class Dialect { kStrict, kJavaScript, kPython };

struct Limits {
  size_t max_bytes = size_t{1} << 20;  // the whole text
  int max_depth = 64;                  // open arrays and objects at once
  size_t max_number_chars = 1024;      // one number's lexeme
  Dialect dialect = Dialect::kStrict;
};

// Limits for a line of a JSON Lines log written by lore or by another program
// (Python dialect, 16 MiB as log::kMaxLineBytes, depth 512): what `lore check` accepts is what
// search, distill and MCP can read.
Limits ForeignLogLine();

// Where a text came from, for the Error: `path` (a file, "<stdin>", ...), the
// line number of the text's first line within that file, and the repair.
struct Source {
  std::string path;
  int64_t first_line = 1;
  std::string repair;
};

// Checks that `text` is one JSON value within `limits`, building nothing.
Status Check(std::string_view text, const Limits& limits, const Source& source = {});

// Parses `text` into a value, object keys in their written order.
Result<Json> ParseOrdered(std::string_view text, const Limits& limits, const Source& source = {});
// Parses `text` into a value, object keys sorted.
Result<SortedJson> Parse(std::string_view text, const Limits& limits, const Source& source = {});

// The largest depth Parse accepts for any caller: values built in memory are
// copied and printed by recursive code, so no limit may exceed this.
inline constexpr int kMaxDepth = 512;

}  // namespace lore::json
