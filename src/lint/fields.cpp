// Rules on a record's frontmatter fields and body.
#include <optional>

#include "doc/rfc3339.h"
#include "lint/rules.h"
#include "lore/text/utf8.h"

namespace lore::lint::detail {
namespace {

using doc::Kind;

struct Required {
  std::string_view key;
  std::string_view example;
};

constexpr Required kTimes[] = {{"created_at", "2026-01-31T12:00:00Z"},
                               {"updated_at", "2026-01-31T12:00:00Z"}};

// The keys a record of `kind` must have, and a value to suggest for each.
std::vector<Required> RequiredKeys(Kind kind) {
  switch (kind) {
    case Kind::kSummary:
      return {{"updated_at", "2026-01-31T12:00:00Z"}};
    case Kind::kDecision:
      return {kTimes[0], kTimes[1], {"status", "open"}, {"sources", "[]"}};
    case Kind::kRequest:
      return {kTimes[0], kTimes[1], {"sources", "[]"}};
    case Kind::kKnowledge:
      return {kTimes[0],
              kTimes[1],
              {"kind", "rule"},
              {"description", "<one line saying when this page helps>"},
              {"last_sources", "[]"}};
    case Kind::kWorkflow:
      return {{"updated_at", "2026-01-31T12:00:00Z"},
              {"description", "<one line saying what the workflow does>"}};
  }
  return {};
}

bool HasIssue(const doc::Record& r, std::string_view key) {
  for (const doc::Issue& i : r.issues) {
    if (i.field == key) return true;
  }
  return false;
}

void CheckIssues(const Ctx& c) {
  for (const doc::Issue& i : c.record.issues) {
    std::string rule = i.type == doc::IssueType::kDuplicateKey ? "duplicate-key" : "field-type";
    c.Error(rule, i.field, i.line, i.message, i.repair);
  }
}

void CheckRequired(const Ctx& c) {
  const doc::Fields& f = c.record.fields;
  for (const Required& req : RequiredKeys(c.target.kind)) {
    std::string key(req.key);
    if (HasIssue(c.record, key)) continue;
    if (!doc::HasValue(f, key)) {
      c.Error("missing-field", key, 0, "missing frontmatter field '" + key + "'",
              "add the line '" + key + ": " + std::string(req.example) + "'");
    } else if (const auto* t = doc::TextValue(f, key); t && (*t)->empty()) {
      c.Error("missing-field", key, c.LineOf(key), "frontmatter field '" + key + "' is empty",
              "write a value: '" + key + ": " + std::string(req.example) + "'");
    }
  }
}

void CheckTimes(const Ctx& c) {
  const doc::Fields& f = c.record.fields;
  for (const Required& t : kTimes) {
    const auto* v = doc::TextValue(f, t.key);
    if (!v->has_value() || (*v)->empty() || doc::IsRfc3339(**v)) continue;
    std::string key(t.key);
    c.Error("bad-time", key, c.LineOf(key), "'" + key + "' is not an RFC 3339 time: '" + **v + "'",
            "write a date and time with its zone, e.g. " + key + ": 2026-01-31T12:00:00Z");
  }
}

void CheckStatus(const Ctx& c) {
  const auto& status = c.record.fields.status;
  if (!status || *status == "open" || *status == "resolved" || *status == "replaced") return;
  c.Error("bad-status", "status", c.LineOf("status"),
          "'status' is '" + *status + "', not one of open, resolved, replaced",
          "write status: open, status: resolved, or status: replaced (with replaced_by)");
}

void CheckDescription(const Ctx& c) {
  const doc::Fields& f = c.record.fields;
  bool injected = f.model_invokation.value_or(false) ||
                  (c.target.kind == Kind::kWorkflow && f.auto_invoke.value_or(false));
  if (!injected || !f.description) return;
  size_t n = text::CodePointCount(*f.description);
  if (n <= kMaxDescriptionChars) return;
  std::string flag = f.model_invokation.value_or(false) ? "model_invokation" : "auto_invoke";
  c.Error("description-too-long", "description", c.LineOf("description"),
          "'description' is " + std::to_string(n) + " characters; at most " +
              std::to_string(kMaxDescriptionChars) + " when " + flag + " is true",
          "shorten the description to " + std::to_string(kMaxDescriptionChars) +
              " characters (move detail into the body), or set " + flag + ": false");
}

// The sources that weigh a record, or nullopt for kinds without any.
std::optional<size_t> SourceCount(const Ctx& c, std::string* key) {
  const doc::Fields& f = c.record.fields;
  if (c.target.kind == Kind::kDecision || c.target.kind == Kind::kRequest) {
    *key = "sources";
    return f.sources ? std::optional<size_t>(f.sources->size()) : std::nullopt;
  }
  if (c.target.kind == Kind::kKnowledge) {
    *key = "last_sources";
    return f.last_sources ? std::optional<size_t>(f.last_sources->size()) : std::nullopt;
  }
  return std::nullopt;
}

void CheckBody(const Ctx& c) {
  size_t chars = text::CodePointCount(c.record.body);
  Kind kind = c.target.kind;
  size_t limit = kind == Kind::kSummary ? kMaxSummaryBodyChars : kMaxBodyChars;
  std::string kind_name(doc::KindName(kind));
  if (chars > limit) {
    c.Error("body-too-long", "", c.record.body_line,
            "body is " + std::to_string(chars) + " characters; a " + kind_name +
                " may have at most " + std::to_string(limit),
            kind == Kind::kSummary
                ? "condense the summary (it should stay around 1-5k tokens)"
                : "split it into several records, or cut what no longer matters");
  }
  std::string key;
  auto sources = SourceCount(c, &key);
  if (!sources) return;
  if (chars >= kLargeBodyChars && *sources <= 1) {
    c.Warn("large-body-few-sources", key, c.record.body_line,
           "body is " + std::to_string(chars) + " characters but '" + key + "' has " +
               std::to_string(*sources) + (*sources == 1 ? " entry" : " entries"),
           "a long record resting on one session is often too detailed: shorten it, or add the "
           "other sessions it draws on");
  }
  if (*sources > kMaxSources) {
    c.Warn("too-many-sources", key, c.LineOf(key),
           "'" + key + "' has " + std::to_string(*sources) + " entries (more than " +
               std::to_string(kMaxSources) + ")",
           "keep the sources that still matter, or split the record by topic");
  }
}

}  // namespace

void CheckFields(const Ctx& c) {
  CheckIssues(c);
  CheckRequired(c);
  CheckTimes(c);
  CheckStatus(c);
  CheckDescription(c);
  CheckBody(c);
}

}  // namespace lore::lint::detail
