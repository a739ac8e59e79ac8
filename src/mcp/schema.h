// Checking tool arguments against the subset of JSON Schema that lore's
// tools use: type (object, string, integer, number, boolean, array),
// properties, required, additionalProperties: false, enum, minLength,
// maxLength, minimum, maximum, items, maxItems. Internal to src/mcp/.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include "lore/json/value.h"

namespace lore::mcp {

// The first way `value` breaks `schema`, naming the argument
// ("query: longer than 1000 characters"), or nullopt when it conforms.
std::optional<std::string> CheckSchema(const Json& schema, const Json& value,
                                       const std::string& where = "arguments");

}  // namespace lore::mcp
