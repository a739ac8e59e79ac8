#include "lore/doc/record.h"

#include <algorithm>

#include "doc/yaml_emit.h"
#include "doc/yaml_value.h"
#include "lore/text/utf8.h"

namespace lore::doc {
namespace {

// 'key', built by appending (GCC 12 warns falsely on "'" + std::string(sv)).
std::string Quote(std::string_view key) { return std::string("'").append(key).append("'"); }

// Any key the record parser reads back as itself (detail::IsKeyName, which the parser asks too;
// a key over YAML's 1024 bytes was accepted here and then lost: found by the record property
// test).
Status CheckKey(std::string_view key) {
  if (detail::IsKeyName(key)) return Ok();
  return Fail(ErrorCode::kInvalidInput,
              Quote(text::PrefixBytes(key, 80)).append(" is not a frontmatter key"), "", 0,
              "use a key of one line of text of at most 1024 bytes, without control characters "
              "or surrounding blanks");
}

// A value given to set is one line: YAML would fold a plain scalar's lines
// into one ("a\nb" is "a b") or read what follows the break as other keys.
Status CheckOneLine(std::string_view key, std::string_view value) {
  if (value.find_first_of("\r\n") == std::string_view::npos) return Ok();
  return Fail(ErrorCode::kInvalidInput, "the value for " + Quote(key) + " has more than one line",
              "", 0,
              "give a value of one line (longer text belongs in the body: --body or --append)");
}

void RemoveRaw(Fields& f, std::string_view key) {
  std::erase_if(f.extra, [&](const RawEntry& e) { return e.key == key; });
}

// Replaces the raw entry for `key` in place, or appends it.
void PutRaw(Fields& f, std::string_view key, std::string text) {
  for (RawEntry& e : f.extra) {
    if (e.key == key) {
      e.text = std::move(text);
      return;
    }
  }
  f.extra.push_back({std::string(key), std::move(text)});
}

}  // namespace

const std::vector<std::string_view>& KnownKeys(Kind kind) {
  static const std::vector<std::string_view> kSummary = {"created_at", "updated_at",
                                                         "last_rewritten_from_range"};
  static const std::vector<std::string_view> kDecision = {"created_at", "updated_at", "status",
                                                          "replaced_by", "sources"};
  static const std::vector<std::string_view> kKnowledge = {
      "created_at",  "updated_at",       "kind",           "description", "status",
      "replaced_by", "model_invokation", "user_invocable", "last_sources"};
  static const std::vector<std::string_view> kWorkflow = {
      "created_at",  "updated_at",     "description", "model_invokation",
      "auto_invoke", "user_invocable", "requires"};
  switch (kind) {
    case Kind::kSummary:
      return kSummary;
    case Kind::kDecision:
    case Kind::kRequest:
      return kDecision;
    case Kind::kKnowledge:
      return kKnowledge;
    case Kind::kWorkflow:
      return kWorkflow;
  }
  return kSummary;
}

bool IsKnownKey(Kind kind, std::string_view key) {
  const auto& keys = KnownKeys(kind);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

bool IsTextKey(Kind kind, std::string_view key) {
  static constexpr std::string_view kText[] = {"created_at",  "updated_at", "kind",
                                               "description", "status",     "replaced_by"};
  if (!IsKnownKey(kind, key)) return true;
  return std::find(std::begin(kText), std::end(kText), key) != std::end(kText);
}

std::string RenderRecord(const Record& r) {
  if (!r.original_head.empty() && r.fields == r.original_fields) return r.original_head + r.body;
  return "---\n" + r.preamble + EmitFields(r.fields) + "---\n" + r.body;
}

Record NewRecord(Kind kind, text::TimePoint now) {
  Record r;
  r.kind = kind;
  std::string t = text::UtcSeconds(now);
  if (kind != Kind::kSummary) r.fields.created_at = t;
  r.fields.updated_at = t;
  if (kind == Kind::kDecision) r.fields.status = "open";
  if (kind == Kind::kDecision || kind == Kind::kRequest) r.fields.sources.emplace();
  if (kind == Kind::kKnowledge) {
    r.fields.model_invokation = false;
    r.fields.user_invocable = true;
    r.fields.last_sources.emplace();
  }
  return r;
}

Status SetFieldYaml(Record& r, std::string_view key, std::string_view yaml) {
  LORE_TRY(CheckKey(key));
  LORE_TRY(CheckOneLine(key, yaml));
  YAML::Node node;
  try {
    node.reset(YAML::Load(std::string(yaml)));
  } catch (const YAML::Exception& e) {
    return Fail(ErrorCode::kInvalidInput,
                "the value for '" + std::string(key) + "' is not valid YAML (" + e.msg + ")", "", 0,
                "write a YAML value such as true, 12, [a, b] or {session_id: s1, range: [1, 4]}");
  }
  if (!IsKnownKey(r.kind, key)) {
    PutRaw(r.fields, key, EmitString(key) + ": " + detail::EmitFlow(node) + "\n");
    return Ok();
  }
  Fields next = r.fields;
  if (auto issue = detail::AssignField(next, key, node, 0, 0)) {
    return Fail(ErrorCode::kInvalidInput, "cannot set " + issue->message, "", 0, issue->repair);
  }
  RemoveRaw(next, key);
  r.fields = std::move(next);
  return Ok();
}

Status SetFieldText(Record& r, std::string_view key, std::string_view text) {
  LORE_TRY(CheckKey(key));
  LORE_TRY(CheckOneLine(key, text));
  if (!IsTextKey(r.kind, key)) {
    return Fail(ErrorCode::kInvalidInput, Quote(key).append(" does not hold text"), "", 0,
                "set it from a YAML value instead (true, [a, b], ...)");
  }
  if (!IsKnownKey(r.kind, key)) {
    PutRaw(r.fields, key, EmitString(key) + ": " + EmitString(text) + "\n");
    return Ok();
  }
  YAML::Node node(std::string{text});
  if (auto issue = detail::AssignField(r.fields, key, node, 0, 0)) {
    return Fail(ErrorCode::kInvalidInput, "cannot set " + issue->message, "", 0, issue->repair);
  }
  RemoveRaw(r.fields, key);
  return Ok();
}

void UnsetField(Record& r, std::string_view key) {
  detail::ClearField(r.fields, key);
  RemoveRaw(r.fields, key);
}

}  // namespace lore::doc
