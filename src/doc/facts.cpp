#include "lore/doc/facts.h"

#include <yaml-cpp/yaml.h>

#include "doc/yaml_value.h"

namespace lore::doc {
namespace {

// The text of `key` when it is a scalar, else "".
std::string Scalar(const YAML::Node& map, std::string_view key) {
  try {
    YAML::Node n = map[std::string(key)];
    if (n && n.IsScalar()) return n.Scalar();
  } catch (const YAML::Exception&) {
  }
  return {};
}

bool Blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

}  // namespace

Result<Facts> ReadFacts(std::string_view yaml, const std::string& path, int64_t yaml_line) {
  LORE_ASSIGN(YAML::Node fm, detail::LoadYaml(yaml, path, yaml_line));
  Facts f;
  if (fm.IsNull()) return f;
  if (!fm.IsMap()) {
    return Fail(ErrorCode::kCorrupt, "frontmatter is not a mapping of keys to values", path,
                yaml_line, "write one 'key: value' line per field between the '---' lines");
  }
  f.kind = Scalar(fm, "kind");
  for (auto key : {"type", "intent", "kind"}) {
    if (f.type.empty() || Blank(f.type)) f.type = Scalar(fm, key);
  }
  if (Blank(f.type)) f.type.clear();
  try {
    if (YAML::Node d = fm["description"]; d && d.IsScalar()) f.description = d.Scalar();
  } catch (const YAML::Exception&) {
  }
  f.status = Scalar(fm, "status");
  f.replaced_by = Scalar(fm, "replaced_by");
  for (auto key : {"speaker", "author", "agent", "proposed_by_agent", "user", "by"}) {
    if (f.author.empty()) f.author = Scalar(fm, key);
  }
  for (auto key : {"updated_at", "created_at", "updated"}) {
    if (!f.updated) f.updated = text::ParseIso(Scalar(fm, key));
  }
  for (auto key : {"sources", "last_sources"}) {
    try {
      YAML::Node s = fm[key];
      if (f.session.empty() && s && s.IsSequence() && s.size() > 0 && s[0].IsMap()) {
        f.session = Scalar(s[0], "session_id");
      }
    } catch (const YAML::Exception&) {
    }
  }
  try {
    if (YAML::Node m = fm["model_invokation"]; m && m.IsScalar()) {
      f.model_invokation = m.as<bool>();
    }
  } catch (const YAML::Exception&) {
  }
  f.title = Scalar(fm, "title");
  try {
    if (YAML::Node tags = fm["tags"]; tags && tags.IsSequence()) {
      for (const auto& t : tags) f.tags.push_back(t.IsScalar() ? t.Scalar() : std::string());
    }
  } catch (const YAML::Exception&) {
  }
  return f;
}

std::optional<std::string> ScalarText(std::string_view value) {
  auto n = detail::LoadYaml(value, "", 1);
  if (n && n->IsScalar()) return n->Scalar();
  return std::nullopt;
}

bool IsFlowCollection(std::string_view value) {
  size_t first = value.find_first_not_of(" \t");
  if (first == std::string_view::npos || (value[first] != '[' && value[first] != '{')) return false;
  auto n = detail::LoadYaml(value, "", 1);
  return n && (n->IsSequence() || n->IsMap());
}

}  // namespace lore::doc
