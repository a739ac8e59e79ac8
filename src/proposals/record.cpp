#include "lore/proposals/record.h"

#include <algorithm>
#include <cmath>

#include "lore/json/dump_js.h"
#include "lore/sys/uuid.h"
#include "lore/text/utf8.h"
#include "redact/redact.h"

namespace lore::proposals {
namespace {

std::string Quoted(const Json& v) {
  std::string s = json::DumpJs(v);
  return s.size() > 80 ? s.substr(0, 80) + "..." : s;
}

constexpr std::string_view kGlobChars = "*?[]{}";

void CheckFilePaths(const Json& v, std::vector<std::string>* errors) {
  if (!v.is_array() || v.empty()) {
    errors->push_back(
        "file_paths must be a non-empty array of paths when present (omit it instead of [])");
    return;
  }
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string at = "file_paths[" + std::to_string(i) + "]";
    if (!v[i].is_string()) {
      errors->push_back(at + " must be a string");
      continue;
    }
    const auto& p = v[i].get_ref<const std::string&>();
    if (p.empty()) errors->push_back(at + " must not be empty");
    if (p.find_first_of("\r\n") != std::string::npos) {
      errors->push_back(at + " must not contain newline characters");
    }
    if (size_t g = p.find_first_of(kGlobChars); g != std::string::npos) {
      errors->push_back(at + " must be a plain path, not a glob (found '" + std::string(1, p[g]) +
                        "' in " + Quoted(v[i]) + ")");
    }
  }
}

}  // namespace

const std::vector<std::string_view>& Types() {
  static const std::vector<std::string_view> kTypes = {
      "mode-selector-accuracy",  "hardware-pattern",  "fragile-file",   "effective-sizing",
      "recurring-issue",         "workflow-pattern",  "proven-pattern", "anti-pattern",
      "autopilot-effectiveness", "domain-regression", "convention",     "architecture-pattern",
      "design-pattern"};
  return kTypes;
}

bool IsType(std::string_view type) {
  const auto& t = Types();
  return std::find(t.begin(), t.end(), type) != t.end();
}

bool IsWaveId(std::string_view wave) {
  if (wave.empty() || wave.size() > kWaveIdMax) return false;
  return std::all_of(wave.begin(), wave.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

std::string CleanWave(std::string_view wave) {
  return wave.size() <= kWaveIdMax ? redact::CleanId(wave) : redact::Clean(wave);
}

Json MakeRecord(const Fields& f, const std::string& id, text::TimePoint now) {
  Json r = Json::object();
  r["id"] = id;
  r["created_at"] = text::UtcMillis(now);
  r["wave_id"] = f.wave_id;
  r["type"] = f.type;
  r["subject"] = f.subject;
  r["insight"] = f.insight;
  r["evidence"] = f.evidence;
  r["confidence"] = f.confidence;
  r["schema_version"] = kSchemaVersion;
  if (f.proposed_by_agent) r["proposed_by_agent"] = *f.proposed_by_agent;
  if (!f.file_paths.empty()) r["file_paths"] = f.file_paths;
  return r;
}

void CheckText(std::string_view name, const Json& value, size_t max, bool required,
               std::vector<std::string>* errors) {
  const std::string n(name);
  if (!value.is_string()) {
    errors->push_back(n + " must be a string");
    return;
  }
  const auto& s = value.get_ref<const std::string&>();
  if (!text::IsValidUtf8(s)) {
    errors->push_back(n + " must be valid UTF-8");
    return;
  }
  const size_t len = text::CodePointCount(s);
  if (required && len == 0) errors->push_back(n + " must not be empty");
  if (len > max) {
    errors->push_back(n + " exceeds " + std::to_string(max) + " chars (got " + std::to_string(len) +
                      ")");
  }
  if (s.find_first_of("\r\n") != std::string::npos) {
    errors->push_back(n + " must not contain newline characters");
  }
}

std::vector<std::string> Validate(const Json& record) {
  std::vector<std::string> errors;
  if (!record.is_object()) return {"record must be a JSON object"};
  static const char* kRequired[] = {"id",       "created_at", "wave_id",
                                    "type",     "subject",    "insight",
                                    "evidence", "confidence", "schema_version"};
  for (const char* key : kRequired) {
    if (!record.contains(key)) errors.push_back(std::string("missing required field: ") + key);
  }
  auto has = [&](const char* k) { return record.contains(k); };
  if (has("id")) {
    const Json& id = record["id"];
    if (!id.is_string() || !sys::IsUuidV4(id.get_ref<const std::string&>())) {
      errors.push_back("id must be a UUID v4, got: " + Quoted(id));
    }
  }
  if (has("created_at")) {
    const Json& t = record["created_at"];
    const bool ok = t.is_string() && !t.get_ref<const std::string&>().empty() &&
                    t.get_ref<const std::string&>().back() == 'Z' &&
                    text::ParseIso(t.get_ref<const std::string&>()).has_value();
    if (!ok) errors.push_back("created_at must be an ISO-8601 UTC time, got: " + Quoted(t));
  }
  if (has("wave_id")) {
    const Json& w = record["wave_id"];
    if (!w.is_string() || w.get_ref<const std::string&>().empty()) {
      errors.push_back("wave_id must be a non-empty string");
    } else if (w.get_ref<const std::string&>().size() > kWaveIdMax) {
      errors.push_back("wave_id must be at most " + std::to_string(kWaveIdMax) +
                       " characters (it names the wave's summary file), got " +
                       std::to_string(w.get_ref<const std::string&>().size()));
    } else if (!IsWaveId(w.get_ref<const std::string&>())) {
      errors.push_back("wave_id must match ^[A-Za-z0-9_-]+$, got: " + Quoted(w));
    }
  }
  if (has("type")) {
    const Json& t = record["type"];
    if (!t.is_string() || !IsType(t.get_ref<const std::string&>())) {
      std::string list;
      for (auto ty : Types()) list += (list.empty() ? "" : ", ") + std::string(ty);
      errors.push_back("type must be one of [" + list + "], got: " + Quoted(t));
    }
  }
  if (has("subject")) CheckText("subject", record["subject"], kSubjectMax, true, &errors);
  if (has("insight")) CheckText("insight", record["insight"], kInsightMax, true, &errors);
  if (has("evidence")) CheckText("evidence", record["evidence"], kEvidenceMax, true, &errors);
  if (has("confidence")) {
    const Json& c = record["confidence"];
    const bool ok = c.is_number() && std::isfinite(c.get<double>()) && c.get<double>() >= 0 &&
                    c.get<double>() <= 1;
    if (!ok) errors.push_back("confidence must be a finite number in [0, 1], got: " + Quoted(c));
  }
  if (has("schema_version")) {
    const Json& v = record["schema_version"];
    if (!v.is_number() || v.get<double>() != kSchemaVersion) {
      errors.push_back("schema_version must be 1, got: " + Quoted(v));
    }
  }
  if (has("proposed_by_agent") && !record["proposed_by_agent"].is_string()) {
    errors.push_back("proposed_by_agent must be a string when present");
  }
  if (has("file_paths")) CheckFilePaths(record["file_paths"], &errors);
  return errors;
}

std::vector<std::string> PromotionProblems(const Json& record) {
  if (!record.is_object()) return {"record must be a JSON object"};
  std::vector<std::string> errors;
  for (const char* key : {"id", "type", "subject", "insight", "evidence", "confidence"}) {
    if (!record.contains(key)) errors.push_back(std::string("missing required field: ") + key);
  }
  if (record.contains("confidence")) {
    const Json& c = record["confidence"];
    if (!c.is_number() || !std::isfinite(c.get<double>()) || c.get<double>() < 0 ||
        c.get<double>() > 1) {
      errors.push_back("confidence must be a number in [0, 1], got: " + Quoted(c));
    }
  }
  if (record.contains("host_class") && !record["host_class"].is_null() &&
      !record["host_class"].is_string()) {
    errors.push_back("host_class must be a string or null, got: " + Quoted(record["host_class"]));
  }
  if (record.contains("anonymized") && !record["anonymized"].is_null() &&
      !record["anonymized"].is_boolean()) {
    errors.push_back("anonymized must be true or false, got: " + Quoted(record["anonymized"]));
  }
  return errors;
}

}  // namespace lore::proposals
