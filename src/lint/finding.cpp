#include "lore/lint/finding.h"
#include "lore/json/value.h"

#include <algorithm>

namespace lore::lint {

std::string_view SeverityName(Severity s) { return s == Severity::kError ? "error" : "warning"; }

std::string Finding::Format() const {
  Error e{ErrorCode::kInvalidInput, message, path, line, repair};
  return std::string(SeverityName(severity)) + ": " + e.Format();
}

Json Finding::ToJson() const {
  Json j;
  j["severity"] = SeverityName(severity);
  j["rule"] = rule;
  j["path"] = path;
  j["line"] = line > 0 ? Json(line) : Json(nullptr);
  j["field"] = field.empty() ? Json(nullptr) : Json(field);
  j["message"] = message;
  j["repair"] = repair;
  return j;
}

size_t Report::Errors() const {
  return static_cast<size_t>(std::count_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.severity == Severity::kError;
  }));
}

size_t Report::Warnings() const { return findings.size() - Errors(); }

void Report::Append(const Report& other) {
  findings.insert(findings.end(), other.findings.begin(), other.findings.end());
}

Json Report::FindingsJson() const {
  Json a = Json::array();
  for (const Finding& f : findings) a.push_back(f.ToJson());
  return a;
}

}  // namespace lore::lint
