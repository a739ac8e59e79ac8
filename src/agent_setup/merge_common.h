// What the settings and MCP merges share: reading the document and naming
// the line of a key in errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::agent_setup {

// The repair of every malformed-file error.
std::string MalformedRepair(std::string_view expected);

// Parses `text` (empty or white space: {}) as an object, keys in order. A
// number that nlohmann would write otherwise than it is written (a big
// integer, -0, 1E5, 1.50) is kept as its lexeme, which Render and
// RenderCompact write back byte for byte: lore init changes no value it does
// not merge.
Result<nlohmann::ordered_json> ReadObject(std::string_view text, const std::string& path,
                                          std::string_view expected);

// The error for `keys` (a path of object keys) whose value has the wrong shape.
Error ShapeError(std::string_view text, const std::string& path,
                 const std::vector<std::string>& keys, std::string_view what,
                 std::string_view expected);

// `value` as compact JSON (numbers as ReadObject kept them), for messages.
std::string RenderCompact(const nlohmann::ordered_json& value);

// True when `command`'s first word names a program called lore (any folder).
bool NamesLore(std::string_view program);

}  // namespace lore::agent_setup
