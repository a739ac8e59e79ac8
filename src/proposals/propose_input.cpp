#include "lore/proposals/propose_input.h"

#include <algorithm>
#include <cstdlib>

#include "lore/sys/uuid.h"
#include "lore/text/utf8.h"
#include "redact/redact.h"

namespace lore::proposals {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsAbsolute(std::string_view p) {
  if (p.empty()) return false;
  if (p[0] == '/' || p[0] == '\\' || p[0] == '~') return true;
  return p.size() >= 2 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':';
}

bool HasDotDot(std::string_view p) {
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = p.size();
    if (p.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::optional<int64_t> ParseCount(std::string_view text, int64_t max) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');  // 19 digits cannot overflow before the check below
    if (v > max) return std::nullopt;
  }
  return v;
}

std::optional<double> ParseConfidence(std::string_view text) {
  // [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
  const std::string s(Trim(text));
  size_t i = 0;
  auto digits = [&]() {
    size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t whole = digits();
  size_t frac = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    frac = digits();
  }
  if (whole == 0 && frac == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  return std::strtod(s.c_str(), nullptr);
}

std::vector<std::string> SplitFilePaths(const std::vector<std::string>& values,
                                        std::vector<std::string>* errors) {
  std::vector<std::string> out;
  std::vector<std::string> cleaned;  // the paths that held a private span or a secret
  for (const std::string& value : values) {
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      std::string p(Trim(std::string_view(value).substr(start, comma - start)));
      start = comma + 1;
      if (std::string c; redact::CleanNamedValue("", p, &c)) {
        p = std::string(Trim(c));
        cleaned.push_back(p);
      }
      if (p.empty() || std::find(out.begin(), out.end(), p) != out.end()) continue;
      out.push_back(p);
    }
  }
  const size_t before = errors->size();
  if (out.size() > kMaxFilePaths) {
    errors->push_back("--file-paths names " + std::to_string(out.size()) + " paths; at most " +
                      std::to_string(kMaxFilePaths) + " are allowed");
  }
  for (const std::string& p : out) {
    const std::string q = "--file-paths entry \"" + p + "\"";
    if (!text::IsValidUtf8(p)) {
      errors->push_back("--file-paths entry is not valid UTF-8");
      continue;
    }
    if (text::CodePointCount(p) > kMaxFilePathLength) {
      errors->push_back("--file-paths entry exceeds " + std::to_string(kMaxFilePathLength) +
                        " chars (got " + std::to_string(text::CodePointCount(p)) + ")");
    }
    if (IsAbsolute(p))
      errors->push_back(q + " is absolute; give a path relative to the repository");
    if (HasDotDot(p)) errors->push_back(q + " has a '..' segment");
    if (p.find_first_of("*?[]{}") != std::string::npos) {
      errors->push_back(q + " is a glob; give plain paths (no * ? [ ] { })");
    }
    if (p.find_first_of("\r\n") != std::string::npos) {
      errors->push_back("--file-paths entry contains a newline");
    }
    if (errors->size() > before && std::find(cleaned.begin(), cleaned.end(), p) != cleaned.end()) {
      errors->back() += " (after removing private spans and secrets)";
    }
  }
  return out;
}

Proposal CheckFlags(const ProposeFlags& f, std::string_view env_wave) {
  Proposal p;
  std::vector<std::string> missing;
  auto take = [&](const std::optional<std::string>& v, const char* name, std::string* into) {
    if (!v) {
      p.errors.push_back(std::string("--") + name + " is required");
      missing.push_back(name);
      return;
    }
    *into = *v;
  };
  take(f.type, "type", &p.fields.type);
  take(f.subject, "subject", &p.fields.subject);
  take(f.insight, "insight", &p.fields.insight);
  take(f.evidence, "evidence", &p.fields.evidence);
  // Private spans and secrets never reach the queue (docs/secrets.md); a
  // field that breaks a rule once cleaned says so.
  std::vector<std::string> cleaned;
  for (auto [name, field] :
       {std::pair{"subject", &p.fields.subject}, std::pair{"insight", &p.fields.insight},
        std::pair{"evidence", &p.fields.evidence}}) {
    std::string out;
    if (!redact::CleanNamedValue("", *field, &out)) continue;
    *field = std::move(out);
    cleaned.push_back(name);
  }
  if (!f.confidence) {
    p.errors.push_back("--confidence is required");
    missing.push_back("confidence");
  } else if (auto c = ParseConfidence(*f.confidence)) {
    p.fields.confidence = *c;
  } else {
    p.errors.push_back("confidence must be a finite number in [0, 1], got: " + *f.confidence);
    missing.push_back("confidence");
  }
  if (f.quota_per_wave) {
    p.quota_per_wave = ParseCount(*f.quota_per_wave, kMaxQuotaPerWave);
    if (!p.quota_per_wave) {
      p.errors.push_back("--quota-per-wave must be a whole number from 0 to " +
                         std::to_string(kMaxQuotaPerWave) + ", got: " + *f.quota_per_wave);
    }
  }
  if (f.confidence_floor) {
    p.confidence_floor = ParseConfidence(*f.confidence_floor);
    if (!p.confidence_floor || !(*p.confidence_floor >= 0 && *p.confidence_floor <= 1)) {
      p.confidence_floor.reset();
      p.errors.push_back("--confidence-floor must be a number from 0 to 1, got: " +
                         *f.confidence_floor);
    }
  }
  if (f.wave) {
    p.fields.wave_id = *f.wave;
    p.wave_known = true;
  } else if (!env_wave.empty()) {
    p.fields.wave_id = std::string(env_wave);
    p.wave_known = true;
  } else {
    p.fields.wave_id = "W-dryrun";
  }
  p.fields.proposed_by_agent = f.agent;
  // The wave and the agent pass the same gate. The wave names a file (its
  // summary): it is cleaned as an id (CleanWave), and one that held a secret
  // is no wave id any more and is refused.
  if (std::string wave = CleanWave(p.fields.wave_id); wave != p.fields.wave_id) {
    p.fields.wave_id = std::move(wave);
    cleaned.push_back("wave_id");
  }
  if (std::string out; p.fields.proposed_by_agent &&
                       redact::CleanNamedValue("", *p.fields.proposed_by_agent, &out)) {
    p.fields.proposed_by_agent = std::move(out);
    cleaned.push_back("proposed_by_agent");
  }
  if (!f.file_paths.empty()) {
    p.fields.file_paths = SplitFilePaths(f.file_paths, &p.errors);
    if (p.fields.file_paths.empty()) p.errors.push_back("--file-paths names no path");
  }
  Json record = MakeRecord(p.fields, sys::NewUuidV4(), std::chrono::system_clock::now());
  record.erase("file_paths");  // its rules were checked by SplitFilePaths
  for (std::string& e : Validate(record)) {
    const bool about_missing =
        std::any_of(missing.begin(), missing.end(),
                    [&](const std::string& m) { return e.rfind(m + " ", 0) == 0; });
    if (about_missing) continue;
    if (std::any_of(cleaned.begin(), cleaned.end(),
                    [&](const std::string& c) { return e.rfind(c + " ", 0) == 0; })) {
      e += " (after removing private spans and secrets)";
    }
    p.errors.push_back(std::move(e));
  }
  return p;
}

}  // namespace lore::proposals
