#include "mcp/schema.h"

#include "lore/json/field.h"
#include "lore/json/value.h"
#include "lore/text/utf8.h"

namespace lore::mcp {
namespace {

std::string TypeName(const Json& v) {
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
  if (v.is_number()) return "number";
  return "null";
}

bool HasType(const Json& v, const std::string& type) {
  std::string t = TypeName(v);
  return t == type || (type == "number" && t == "integer") ||
         (type == "integer" && v.is_number_float() && json::AsInt(v).has_value());
}

std::optional<std::string> CheckString(const Json& s, const Json& v, const std::string& where) {
  size_t n = text::CodePointCount(v.get_ref<const std::string&>());
  if (s.contains("maxLength") && n > s["maxLength"].get<size_t>()) {
    return where + ": longer than " + std::to_string(s["maxLength"].get<size_t>()) +
           " characters (" + std::to_string(n) + ")";
  }
  if (s.contains("minLength") && n < s["minLength"].get<size_t>()) {
    return where + ": shorter than " + std::to_string(s["minLength"].get<size_t>()) + " characters";
  }
  return std::nullopt;
}

std::optional<std::string> CheckNumber(const Json& s, const Json& v, const std::string& where) {
  double x = v.get<double>();
  if (s.contains("minimum") && x < s["minimum"].get<double>()) {
    return where + ": below the minimum " + s["minimum"].dump();
  }
  if (s.contains("maximum") && x > s["maximum"].get<double>()) {
    return where + ": above the maximum " + s["maximum"].dump();
  }
  return std::nullopt;
}

std::optional<std::string> CheckObject(const Json& s, const Json& v, const std::string& where) {
  const Json empty = Json::object();
  const Json& props = s.contains("properties") ? s["properties"] : empty;
  if (s.contains("required")) {
    for (const auto& key : s["required"]) {
      if (!v.contains(key.get<std::string>())) {
        return where + ": missing required argument '" + key.get<std::string>() + "'";
      }
    }
  }
  bool closed = s.contains("additionalProperties") && s["additionalProperties"].is_boolean() &&
                !s["additionalProperties"].get<bool>();
  for (const auto& [key, value] : v.items()) {
    std::string at = where == "arguments" ? key : where + "." + key;
    if (props.contains(key)) {
      if (auto p = CheckSchema(props[key], value, at)) return p;
    } else if (closed) {
      return where + ": unknown argument '" + key + "'";
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CheckSchema(const Json& s, const Json& v, const std::string& where) {
  if (s.contains("type")) {
    std::string type = s["type"].get<std::string>();
    if (!HasType(v, type)) return where + ": expected " + type + ", got " + TypeName(v);
  }
  if (s.contains("enum")) {
    bool found = false;
    for (const auto& e : s["enum"]) found = found || e == v;
    if (!found) return where + ": not one of " + s["enum"].dump();
  }
  if (v.is_string()) return CheckString(s, v, where);
  if (v.is_number()) return CheckNumber(s, v, where);
  if (v.is_object()) return CheckObject(s, v, where);
  if (v.is_array()) {
    if (s.contains("maxItems") && v.size() > s["maxItems"].get<size_t>()) {
      return where + ": more than " + std::to_string(s["maxItems"].get<size_t>()) + " items";
    }
    if (s.contains("items")) {
      for (size_t i = 0; i < v.size(); ++i) {
        if (auto p = CheckSchema(s["items"], v[i], where + "[" + std::to_string(i) + "]")) return p;
      }
    }
  }
  return std::nullopt;
}

}  // namespace lore::mcp
