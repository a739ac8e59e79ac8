// Checking tool arguments against the subset of JSON Schema that lore's
// tools use: type (object, string, integer, number, boolean, array),
// properties, required, additionalProperties: false, enum, minLength,
// maxLength, minimum, maximum, items, maxItems. Internal to src/mcp/.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lore::mcp {

// The first way `value` breaks `schema`, naming the argument
// ("query: longer than 1000 characters"), or nullopt when it conforms.
std::optional<std::string> CheckSchema(const nlohmann::ordered_json& schema,
                                       const nlohmann::ordered_json& value,
                                       const std::string& where = "arguments");

}  // namespace lore::mcp
