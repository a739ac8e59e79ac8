#include "redact/json.h"

#include <unordered_set>

#include "json/compact.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "redact/redact.h"

namespace lore::redact {
namespace {

// `key`, or `key` + "~2", "~3", ... : the first not in `taken`.
std::string Unique(const std::string& key, const std::unordered_set<std::string>& taken) {
  std::string out = key;
  for (int n = 2; taken.count(out); ++n) out = key + "~" + std::to_string(n);
  return out;
}

bool CleanValue(std::string_view name, Json* v) {
  if (v->is_string()) {
    std::string out;
    if (!CleanNamedValue(name, v->get_ref<const std::string&>(), &out)) return false;
    *v = std::move(out);
    return true;
  }
  bool changed = false;
  if (v->is_array()) {
    for (Json& e : *v) changed = CleanValue({}, &e) || changed;
    return changed;
  }
  if (!v->is_object()) return false;
  bool renamed = false;
  for (auto& [key, member] : v->items()) {
    changed = CleanValue(key, &member) || changed;
    renamed = renamed || HasFindings(key);
  }
  if (!renamed) return changed;
  // Keys are renamed by building the object again, in its order.
  Json out = Json::object();
  std::unordered_set<std::string> taken;
  for (auto& [key, member] : v->items()) {
    std::string k = Unique(Clean(key), taken);
    taken.insert(k);
    out[k] = std::move(member);
  }
  *v = std::move(out);
  return true;
}

}  // namespace

bool CleanJsonString(std::string_view name, std::string_view value, std::string* out) {
  return CleanNamedValue(name, value, out);
}

bool CleanJson(Json* value) { return CleanValue({}, value); }

std::string CleanJsonLine(std::string_view line) {
  bool changed = false;
  const json::StringFilter filter = [&changed](std::string_view name, std::string_view value,
                                               std::string* out) {
    const bool c = CleanJsonString(name, value, out);
    changed = changed || c;
    return c;
  };
  auto compact = json::CompactObjectWith(line, json::ForeignLogLine(), {}, {}, &filter);
  if (!compact) return Clean(line);
  return changed ? std::move(*compact) : std::string(line);
}

}  // namespace lore::redact
