#include "redact/rules.h"

#include <cstring>

namespace lore::redact::internal {
namespace {

constexpr size_t kNpos = std::string_view::npos;

bool IsUpper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(unsigned char c) { return IsUpper(c) || IsLower(c) || IsDigit(c); }
// The bytes of a token: base64url and the alphabets of the key formats.
bool IsTok(unsigned char c) { return IsAlnum(c) || c == '_' || c == '-'; }

unsigned char At(std::string_view s, size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

bool StartsWith(std::string_view s, size_t i, std::string_view p) {
  return s.size() - i >= p.size() && std::memcmp(s.data() + i, p.data(), p.size()) == 0;
}

// Token rules start where no token byte precedes: runs of token bytes are
// then scanned by at most one rule each, which keeps the scan linear.
bool TokStart(std::string_view s, size_t i) { return i == 0 || !IsTok(At(s, i - 1)); }

template <class Pred>
size_t RunEnd(std::string_view s, size_t i, Pred pred) {
  while (i < s.size() && pred(At(s, i))) ++i;
  return i;
}

bool Found(Rule rule, size_t begin, size_t end, Match* m) {
  *m = Match{rule, begin, end};
  return true;
}

// AKIA/ASIA (and the other AWS key-id prefixes) + 16 [0-9A-Z], whole word.
bool Aws(std::string_view s, size_t i, Match* m) {
  static constexpr std::string_view kPrefixes[] = {"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA",
                                                   "AIPA", "ANPA", "ANVA", "APKA", "AROA", "ASCA"};
  if (i > 0 && IsAlnum(At(s, i - 1))) return false;
  bool prefix = false;
  for (auto p : kPrefixes) prefix = prefix || StartsWith(s, i, p);
  if (!prefix) return false;
  size_t end = RunEnd(s, i + 4, [](unsigned char c) { return IsUpper(c) || IsDigit(c); });
  if (end - i != 20 || IsAlnum(At(s, end))) return false;
  return Found(Rule::kAwsAccessKey, i, end, m);
}

// AIza + 35 or more token bytes.
bool Google(std::string_view s, size_t i, Match* m) {
  if (!TokStart(s, i) || !StartsWith(s, i, "AIza")) return false;
  size_t end = RunEnd(s, i + 4, IsTok);
  if (end - i < 39) return false;
  return Found(Rule::kGoogleApiKey, i, end, m);
}

// gh[pousr]_ + 36+ alnum; github_pat_ + 22+ [A-Za-z0-9_].
bool Github(std::string_view s, size_t i, Match* m) {
  if (!TokStart(s, i)) return false;
  if (StartsWith(s, i, "github_pat_")) {
    size_t end = RunEnd(s, i + 11, [](unsigned char c) { return IsAlnum(c) || c == '_'; });
    if (end - i - 11 < 22 || At(s, end) == '-') return false;
    return Found(Rule::kGithubToken, i, end, m);
  }
  if (At(s, i + 1) != 'h' || !std::strchr("pousr", At(s, i + 2)) || At(s, i + 2) == 0 ||
      At(s, i + 3) != '_') {
    return false;
  }
  size_t end = RunEnd(s, i + 4, IsAlnum);
  if (end - i - 4 < 36 || IsTok(At(s, end))) return false;
  return Found(Rule::kGithubToken, i, end, m);
}

// xox[abprs]- + 10+ [A-Za-z0-9-] holding a digit.
bool Slack(std::string_view s, size_t i, Match* m) {
  if (!TokStart(s, i) || !StartsWith(s, i, "xox") || At(s, i + 3) == 0 ||
      !std::strchr("abprs", At(s, i + 3)) || At(s, i + 4) != '-') {
    return false;
  }
  bool digit = false;
  size_t end = RunEnd(s, i + 5, [&](unsigned char c) {
    digit = digit || IsDigit(c);
    return IsAlnum(c) || c == '-';
  });
  if (end - i - 5 < 10 || !digit) return false;
  return Found(Rule::kSlackToken, i, end, m);
}

// sk- + 20+ token bytes (sk-proj-..., sk-ant-... included) holding a
// digit and a letter.
bool Openai(std::string_view s, size_t i, Match* m) {
  if (!TokStart(s, i) || !StartsWith(s, i, "sk-")) return false;
  bool digit = false, letter = false;
  size_t end = RunEnd(s, i + 3, [&](unsigned char c) {
    digit = digit || IsDigit(c);
    letter = letter || IsUpper(c) || IsLower(c);
    return IsTok(c);
  });
  if (end - i - 3 < 20 || !digit || !letter) return false;
  return Found(Rule::kOpenaiKey, i, end, m);
}

// eyJ... . eyJ... . signature (possibly empty, as with alg "none").
bool Jwt(std::string_view s, size_t i, Match* m) {
  if (!TokStart(s, i) || !StartsWith(s, i, "eyJ")) return false;
  size_t header = RunEnd(s, i, IsTok);
  if (header - i < 10 || At(s, header) != '.' || !StartsWith(s, header + 1, "eyJ")) return false;
  size_t payload = RunEnd(s, header + 1, IsTok);
  if (payload - header - 1 < 10 || At(s, payload) != '.') return false;
  return Found(Rule::kJwt, i, RunEnd(s, payload + 1, IsTok), m);
}

// The label of a PEM line: [A-Z0-9 ]* then "PRIVATE KEY-----". Returns the
// end of the line's dashes, or kNpos.
size_t PemLabelEnd(std::string_view s, size_t i) {
  size_t end = RunEnd(s, i, [](unsigned char c) { return IsUpper(c) || IsDigit(c) || c == ' '; });
  if (end - i > 64) return kNpos;
  // "PRIVATE KEY" ends the run of [A-Z ]: step back over it.
  constexpr std::string_view kTail = "PRIVATE KEY";
  if (end - i < kTail.size() || !StartsWith(s, end - kTail.size(), kTail)) return kNpos;
  if (!StartsWith(s, end, "-----")) return kNpos;
  return end + 5;
}

// -----BEGIN ... PRIVATE KEY----- to its END line, or to the end of the text.
bool PrivateKey(std::string_view s, size_t i, Match* m) {
  if (!StartsWith(s, i, "-----BEGIN ") || (i > 0 && At(s, i - 1) == '-')) return false;
  size_t begin_end = PemLabelEnd(s, i + 11);
  if (begin_end == kNpos) return false;
  size_t from = begin_end;
  while (true) {
    size_t end_line = s.find("-----END ", from);
    if (end_line == kNpos) return Found(Rule::kPrivateKey, i, s.size(), m);
    size_t after = PemLabelEnd(s, end_line + 9);
    if (after != kNpos) return Found(Rule::kPrivateKey, i, after, m);
    from = end_line + 9;
  }
}

}  // namespace

bool TryTokenRules(std::string_view s, size_t i, Match* m) {
  switch (At(s, i)) {
    case 'A':
      return Aws(s, i, m) || Google(s, i, m);
    case 'g':
      return Github(s, i, m);
    case 'x':
      return Slack(s, i, m);
    case 's':
      return Openai(s, i, m);
    case 'e':
      return Jwt(s, i, m);
    case '-':
      return PrivateKey(s, i, m);
    default:
      return false;
  }
}

}  // namespace lore::redact::internal
