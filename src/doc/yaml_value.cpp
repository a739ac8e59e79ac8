#include "doc/yaml_value.h"

#include <charconv>
#include <set>

namespace lore::doc::detail {
namespace {

// What a key's value must look like: the message and the repair of its Issue.
struct Shape {
  std::string_view key;
  std::string_view expected;
  std::string_view repair;
};

constexpr Shape kShapes[] = {
    {"created_at", "an RFC 3339 time", "write it like 2026-01-31T12:00:00Z"},
    {"updated_at", "an RFC 3339 time", "write it like 2026-01-31T12:00:00Z"},
    {"kind", "text", "write one word such as rule, policy or howto"},
    {"description", "text", "write one line of text (quote it if it contains ': ')"},
    {"status", "one of open, resolved, replaced", "write status: open, resolved or replaced"},
    {"replaced_by", "a slug", "write the slug of the record that replaces this one"},
    {"model_invokation", "true or false",
     "write model_invokation: true or model_invokation: false"},
    {"auto_invoke", "true or false", "write auto_invoke: true or auto_invoke: false"},
    {"user_invocable", "true or false", "write user_invocable: true or user_invocable: false"},
    {"requires", "a list of knowledge slugs", "write requires: [slug-a, slug-b], or requires: []"},
    {"last_rewritten_from_range", "[from, to] with whole numbers, from <= to",
     "write last_rewritten_from_range: [12, 40]"},
    {"sources", "a list of {session_id, range: [from, to]}",
     "copy session_id and range from the staged entry, e.g. sources: [{session_id: s1, range: "
     "[3, 17]}]; write sources: [] when there is none"},
    {"last_sources", "a list of {session_id, range: [from, to]}",
     "copy session_id and range from the staged entry, e.g. last_sources: [{session_id: s1, "
     "range: [3, 17]}]; write last_sources: [] when there is none"},
};

const Shape& ShapeOf(std::string_view key) {
  for (const Shape& s : kShapes) {
    if (s.key == key) return s;
  }
  static const Shape kNone{"", "a value", "fix the value"};
  return kNone;
}

bool IsText(const YAML::Node& n) { return n.IsScalar(); }

std::optional<bool> AsBool(const YAML::Node& n) {
  if (!n.IsScalar() || n.Tag() != "?") return std::nullopt;
  const std::string& s = n.Scalar();
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

std::optional<uint64_t> AsUint(const YAML::Node& n) {
  if (!n.IsScalar() || n.Tag() != "?") return std::nullopt;
  const std::string& s = n.Scalar();
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<Range> AsRange(const YAML::Node& n) {
  if (!n.IsSequence() || n.size() != 2) return std::nullopt;
  auto from = AsUint(n[0]);
  auto to = AsUint(n[1]);
  if (!from || !to || *from > *to) return std::nullopt;
  return Range{*from, *to};
}

std::optional<std::vector<std::string>> AsTextList(const YAML::Node& n) {
  if (!n.IsSequence()) return std::nullopt;
  std::vector<std::string> out;
  for (const YAML::Node& e : n) {
    if (!IsText(e)) return std::nullopt;
    out.push_back(e.Scalar());
  }
  return out;
}

// A source map; on failure `*bad` is the offending node.
std::optional<Source> AsSource(const YAML::Node& n, YAML::Node* bad) {
  bad->reset(n);
  if (!n.IsMap()) return std::nullopt;
  Source s;
  bool has_id = false, has_range = false;
  for (const auto& kv : n) {
    std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    if ((key == "session_id" || key == "segment_id") && !has_id && IsText(kv.second) &&
        !kv.second.Scalar().empty()) {
      s.session_id = kv.second.Scalar();
      has_id = true;
    } else if (key == "range" && !has_range) {
      auto r = AsRange(kv.second);
      if (!r) {
        bad->reset(kv.second);
        return std::nullopt;
      }
      s.range = *r;
      has_range = true;
    } else {
      bad->reset(kv.second);
      return std::nullopt;
    }
  }
  if (!has_id || !has_range) return std::nullopt;
  return s;
}

std::optional<std::vector<Source>> AsSources(const YAML::Node& n, YAML::Node* bad) {
  bad->reset(n);
  if (!n.IsSequence()) return std::nullopt;
  std::vector<Source> out;
  for (const YAML::Node& e : n) {
    auto s = AsSource(e, bad);
    if (!s) return std::nullopt;
    out.push_back(std::move(*s));
  }
  return out;
}

bool IsPlainTag(const YAML::Node& n) { return n.Tag() == "?"; }

// The typed member behind a key, for Fields or const Fields.
template <class F>
auto TextSlot(F& f, std::string_view key) -> decltype(&f.created_at) {
  if (key == "created_at") return &f.created_at;
  if (key == "updated_at") return &f.updated_at;
  if (key == "kind") return &f.kind;
  if (key == "description") return &f.description;
  if (key == "status") return &f.status;
  if (key == "replaced_by") return &f.replaced_by;
  return nullptr;
}

template <class F>
auto BoolSlot(F& f, std::string_view key) -> decltype(&f.model_invokation) {
  if (key == "model_invokation") return &f.model_invokation;
  if (key == "auto_invoke") return &f.auto_invoke;
  if (key == "user_invocable") return &f.user_invocable;
  return nullptr;
}

template <class F>
auto SourcesSlot(F& f, std::string_view key) -> decltype(&f.sources) {
  if (key == "sources") return &f.sources;
  if (key == "last_sources") return &f.last_sources;
  return nullptr;
}

// Assigns `value` to known key `key`; false (with `*bad` the offending
// node) when it has the wrong type.
bool Assign(Fields& f, std::string_view key, const YAML::Node& value, YAML::Node* bad) {
  if (auto* text = TextSlot(f, key)) {
    if (!IsText(value)) return false;
    *text = value.Scalar();
  } else if (auto* flag = BoolSlot(f, key)) {
    auto b = AsBool(value);
    if (!b) return false;
    *flag = *b;
  } else if (auto* list = SourcesSlot(f, key)) {
    auto sources = AsSources(value, bad);
    if (!sources) return false;
    *list = std::move(*sources);
  } else if (key == "requires") {
    auto slugs = AsTextList(value);
    if (!slugs) return false;
    f.requirements = std::move(*slugs);
  } else if (key == "last_rewritten_from_range") {
    auto range = AsRange(value);
    if (!range) return false;
    f.last_rewritten_from_range = *range;
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::optional<Issue> AssignField(Fields& f, std::string_view key, const YAML::Node& value,
                                 int64_t line_offset, int64_t fallback_line) {
  YAML::Node bad = value;
  if (Assign(f, key, value, &bad)) return std::nullopt;
  const Shape& shape = ShapeOf(key);
  int64_t mark = bad.Mark().line;
  Issue issue{IssueType::kIllTyped, std::string(key),
              mark >= 0 ? line_offset + mark : fallback_line, "'", std::string(shape.repair)};
  issue.message.append(key).append("' must be ").append(shape.expected);
  return issue;
}

void ClearField(Fields& f, std::string_view key) {
  if (auto* text = TextSlot(f, key)) text->reset();
  if (auto* flag = BoolSlot(f, key)) flag->reset();
  if (auto* list = SourcesSlot(f, key)) list->reset();
  if (key == "requires") f.requirements.reset();
  if (key == "last_rewritten_from_range") f.last_rewritten_from_range.reset();
}

bool HasTypedValue(const Fields& f, std::string_view key) {
  if (auto* text = TextSlot(f, key)) return text->has_value();
  if (auto* flag = BoolSlot(f, key)) return flag->has_value();
  if (auto* list = SourcesSlot(f, key)) return list->has_value();
  if (key == "requires") return f.requirements.has_value();
  if (key == "last_rewritten_from_range") return f.last_rewritten_from_range.has_value();
  return false;
}

namespace {

std::string EmitFlowNamed(const YAML::Node& node, std::string_view name,
                          const ScalarFilter* filter) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (std::string out; filter && (*filter)(name, s, &out))
        return EmitString(out, ScalarContext::kFlow);
      // A plain scalar keeps its meaning (a number stays a number).
      if (IsPlainTag(node) && IsPlainSafe(s, ScalarContext::kFlow, false)) return s;
      return EmitString(s, ScalarContext::kFlow);
    }
    case YAML::NodeType::Sequence: {
      std::string out = "[";
      for (size_t i = 0; i < node.size(); ++i) {
        if (i) out += ", ";
        out += EmitFlowNamed(node[i], {}, filter);
      }
      return out + "]";
    }
    case YAML::NodeType::Map: {
      std::string out = "{";
      std::set<std::string> keys;  // as emitted: two keys filtered alike stay two
      for (const auto& kv : node) {
        std::string key = EmitFlowNamed(kv.first, {}, filter);
        if (filter && !keys.insert(key).second && kv.first.IsScalar()) {
          std::string base;
          if (!(*filter)({}, kv.first.Scalar(), &base)) base = kv.first.Scalar();
          for (int n = 2; !keys.insert(key).second; ++n)
            key = EmitString(base + "~" + std::to_string(n), ScalarContext::kFlow);
        }
        if (out.size() > 1) out += ", ";
        // A copy: `IsScalar() ? Scalar() : ""` would be a temporary string,
        // gone before the view of it is read (found by the record fuzzer).
        const std::string member = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
        out += key + ": " + EmitFlowNamed(kv.second, member, filter);
      }
      return out + "}";
    }
    default:
      return "null";
  }
}

}  // namespace

std::string EmitFlow(const YAML::Node& node, const ScalarFilter* filter, std::string_view name) {
  return EmitFlowNamed(node, name, filter);
}

}  // namespace lore::doc::detail

namespace lore::doc {

const std::optional<std::string>* TextValue(const Fields& fields, std::string_view key) {
  return detail::TextSlot(fields, key);
}

bool HasValue(const Fields& fields, std::string_view key) {
  return detail::HasTypedValue(fields, key);
}

}  // namespace lore::doc
