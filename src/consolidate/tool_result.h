// Internal to lore::consolidate: the JSON the tools answer with.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lore/error.h"

namespace lore::consolidate::detail {

// {"error": what} (with "findings" when given).
inline std::string ErrorJson(const std::string& what, const std::vector<std::string>& findings = {}) {
  nlohmann::ordered_json j = {{"error", what}};
  if (!findings.empty()) j["findings"] = findings;
  return j.dump();
}
inline std::string ErrorJson(const Error& e) { return ErrorJson(e.Format()); }

// args[key] when it is a string.
inline std::optional<std::string> StringArg(const nlohmann::ordered_json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace lore::consolidate::detail
