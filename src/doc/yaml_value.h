// Internal to lore::doc: typed conversion of yaml-cpp nodes to record fields,
// and a one-line flow emitter for values lore does not interpret.
#pragma once

#include <yaml-cpp/yaml.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "doc/yaml_emit.h"
#include "lore/doc/record.h"

namespace lore::doc::detail {

// Parses the frontmatter `yaml` (starting at line `yaml_line` of `path`):
// the one YAML loader of lore. Refuses control characters other than tab and
// line breaks; never throws.
Result<YAML::Node> LoadYaml(std::string_view yaml, const std::string& path, int64_t yaml_line);

// Assigns `value` to the known key `key` of `fields`. On a type mismatch,
// leaves `fields` unchanged and returns the Issue; its line is the node's
// line plus `line_offset` (or `fallback_line` when the node has no mark).
std::optional<Issue> AssignField(Fields& fields, std::string_view key, const YAML::Node& value,
                                 int64_t line_offset, int64_t fallback_line);

// Clears the typed value of known key `key`.
void ClearField(Fields& fields, std::string_view key);
// True when known key `key` has a typed value in `fields`.
bool HasTypedValue(const Fields& fields, std::string_view key);

// What EmitFlow may do to a scalar: given the name of the member it is the
// value of ("" for a key or a list element) and its text, returns true and
// sets `*out` to write `*out` instead (as text, quoted as needed).
using ScalarFilter =
    std::function<bool(std::string_view name, std::string_view value, std::string* out)>;

// `node` as one line of flow YAML ("[a, b]", "{k: v}", "\"text\""), every
// scalar (keys too) through `filter` when one is given, `node` itself as the
// value of member `name`; a key the filter makes like an earlier key of its
// mapping gets "~2", "~3", ...
std::string EmitFlow(const YAML::Node& node, const ScalarFilter* filter = nullptr,
                     std::string_view name = {});

// True when `s` can be written as a plain scalar in `context`; with
// `check_resolution`, also when no parser would read it as null, a boolean
// or a number.
bool IsPlainSafe(std::string_view s, ScalarContext context, bool check_resolution);
// `s` double-quoted with YAML escapes.
std::string Quote(std::string_view s);

// The longest key, as written (quotes and escapes included), that YAML reads as an implicit key.
inline constexpr size_t kMaxKeyBytes = 1024;
// True when `key` is a key the record parser reads back as itself: one line of UTF-8 text without
// control characters or surrounding blanks, at most kMaxKeyBytes as the emitter writes it. Both
// the parser (anything else is an Issue) and the setters (SetFieldText, SetFieldYaml refuse
// anything else) ask it.
bool IsKeyName(std::string_view key);

}  // namespace lore::doc::detail
