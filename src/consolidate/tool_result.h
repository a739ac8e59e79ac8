// Internal to lore::consolidate: the JSON the tools answer with.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::consolidate::detail {

// `j` as compact JSON; invalid UTF-8 in strings becomes U+FFFD instead of throwing.
inline std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// {"error": what} (with "findings" when given).
inline std::string ErrorJson(const std::string& what,
                             const std::vector<std::string>& findings = {}) {
  Json j = {{"error", what}};
  if (!findings.empty()) j["findings"] = findings;
  return Dump(j);
}
inline std::string ErrorJson(const Error& e) { return ErrorJson(e.Format()); }

// args[key] when it is a string.
inline std::optional<std::string> StringArg(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace lore::consolidate::detail
