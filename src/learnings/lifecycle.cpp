#include "lore/learnings/lifecycle.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "lore/json/field.h"

namespace lore::learnings {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool IsTrailingPunct(char c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?';
}

}  // namespace

int TtlDays(std::string_view type) {
  struct Ttl {
    std::string_view type;
    int days;
  };
  // docs/learnings.md, as the original's scripts/lib/learnings/schema.mjs.
  static constexpr Ttl kTable[] = {
      {"mode-selector-accuracy", 30},  {"fragile-file", 45},     {"effective-sizing", 45},
      {"recurring-issue", 45},         {"hardware-pattern", 60}, {"domain-regression", 60},
      {"workflow-pattern", 90},        {"proven-pattern", 90},   {"anti-pattern", 90},
      {"autopilot-effectiveness", 90}, {"convention", 90},       {"architecture-pattern", 90},
      {"design-pattern", 90},
  };
  for (const auto& t : kTable) {
    if (t.type == type) return t.days;
  }
  return 60;
}

std::string NormaliseSubject(std::string_view subject) {
  std::string out;
  out.reserve(subject.size());
  bool pending_space = false;
  for (char c : subject) {
    if (IsSpace(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  while (!out.empty() && (IsTrailingPunct(out.back()) || out.back() == ' ')) out.pop_back();
  return out;
}

double RoundConfidence(double v) {
  if (!std::isfinite(v)) return v;
  return std::round(v * 1e9) / 1e9;
}

Facts FactsOf(const Json& l) {
  Facts f;
  if (!l.is_object()) return f;
  f.id = json::StringOr(l, "id", "");
  f.type = json::StringOr(l, "type", "");
  f.subject = json::StringOr(l, "subject", "");
  f.confidence = json::Number(l, "confidence");
  f.occurrences = json::Int(l, "occurrences");
  if (auto e = json::String(l, "expires_at")) f.expires_at = text::ParseIso(*e);
  return f;
}

bool IsLive(const Facts& f, text::TimePoint now) {
  if (f.expires_at && *f.expires_at <= now) return false;
  return !f.confidence || *f.confidence > 0;
}

void Confirm(Json* l, std::string_view proposal_id, text::TimePoint now) {
  Json& j = *l;
  const auto occ = json::Int(j, "occurrences", 0);
  j["occurrences"] = occ ? *occ + 1 : 2;
  const double c = json::Number(j, "confidence").value_or(0);
  j["confidence"] = RoundConfidence(std::min(1.0, c + kConfirmStep));
  const std::string type = json::StringOr(j, "type", "");
  j["expires_at"] = text::UtcMillis(now + std::chrono::hours(24) * TtlDays(type));
  if (!j.contains("confirmed_by") || !j["confirmed_by"].is_array()) {
    j["confirmed_by"] = Json::array();
  }
  j["confirmed_by"].push_back(std::string(proposal_id));
}

void Contradict(Json* l) {
  Json& j = *l;
  const double c = json::Number(j, "confidence").value_or(0);
  j["confidence"] = RoundConfidence(std::max(0.0, c - kContradictStep));
}

}  // namespace lore::learnings
