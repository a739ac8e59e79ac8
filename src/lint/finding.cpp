#include "lore/lint/finding.h"

#include <algorithm>

namespace lore::lint {

std::string_view SeverityName(Severity s) { return s == Severity::kError ? "error" : "warning"; }

std::string Finding::Format() const {
  Error e{ErrorCode::kInvalidInput, message, path, line, repair};
  return std::string(SeverityName(severity)) + ": " + e.Format();
}

nlohmann::ordered_json Finding::ToJson() const {
  nlohmann::ordered_json j;
  j["severity"] = SeverityName(severity);
  j["rule"] = rule;
  j["path"] = path;
  j["line"] = line > 0 ? nlohmann::ordered_json(line) : nlohmann::ordered_json(nullptr);
  j["field"] = field.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(field);
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

nlohmann::ordered_json Report::FindingsJson() const {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const Finding& f : findings) a.push_back(f.ToJson());
  return a;
}

}  // namespace lore::lint
