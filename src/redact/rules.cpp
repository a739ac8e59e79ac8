// The token rules with a look of their own (the others are the prefix table)
// and the rules found by a byte in their middle.
#include "redact/rules.h"

#include <cstring>

namespace lore::redact::internal {
namespace {

// Token rules start where no token byte precedes: runs of token bytes are
// then scanned by at most one attempt of each rule, which keeps the scan
// linear.
bool TokStart(std::string_view s, size_t i) { return i == 0 || !IsTok(ByteAt(s, i - 1)); }

template <class Pred>
size_t RunEnd(std::string_view s, size_t i, Pred pred) {
  while (i < s.size() && pred(ByteAt(s, i))) ++i;
  return i;
}

// Like RunEnd, reading at most `max` + 1 bytes.
template <class Pred>
size_t RunEndAtMost(std::string_view s, size_t i, size_t max, Pred pred) {
  const size_t limit = s.size() - i > max ? i + max + 1 : s.size();
  while (i < limit && pred(ByteAt(s, i))) ++i;
  return i;
}

bool Found(Rule rule, size_t begin, size_t end, Match* m) {
  *m = Match{rule, begin, end};
  return true;
}

// AKIA/ASIA (and the other AWS key-id prefixes, A3T?) + 16 [0-9A-Z], whole word.
bool Aws(std::string_view s, size_t i, Match* m) {
  static constexpr std::string_view kPrefixes[] = {"AKIA", "ASIA", "ABIA", "ACCA", "AGPA",
                                                   "AIDA", "AIPA", "ANPA", "ANVA", "APKA",
                                                   "AROA", "ASCA", "A3T"};
  if (i > 0 && IsAlnum(ByteAt(s, i - 1))) return false;
  bool prefix = false;
  for (auto p : kPrefixes) prefix = prefix || StartsWith(s, i, p);
  if (!prefix) return false;
  size_t end = RunEndAtMost(s, i + 3, 17, [](unsigned char c) { return IsUpper(c) || IsDigit(c); });
  if (end - i != 20 || IsAlnum(ByteAt(s, end))) return false;
  return Found(Rule::kAwsAccessKey, i, end, m);
}

// AIza + 35 or more token bytes.
bool Google(std::string_view s, size_t i, Match* m) {
  if (!StartsWith(s, i, "AIza")) return false;
  size_t end = RunEnd(s, i + 4, IsTok);
  if (end - i < 39) return false;
  return Found(Rule::kGoogleApiKey, i, end, m);
}

// gh[pousr]_ + 36+ alnum; github_pat_ + 22+ [A-Za-z0-9_].
bool Github(std::string_view s, size_t i, Match* m) {
  if (StartsWith(s, i, "github_pat_")) {
    size_t end = RunEnd(s, i + 11, [](unsigned char c) { return IsAlnum(c) || c == '_'; });
    if (end - i - 11 < 22 || ByteAt(s, end) == '-') return false;
    return Found(Rule::kGithubToken, i, end, m);
  }
  if (ByteAt(s, i + 1) != 'h' || ByteAt(s, i + 2) == 0 || !std::strchr("pousr", ByteAt(s, i + 2)) ||
      ByteAt(s, i + 3) != '_') {
    return false;
  }
  size_t end = RunEnd(s, i + 4, IsAlnum);
  if (end - i - 4 < 36 || IsTok(ByteAt(s, end))) return false;
  return Found(Rule::kGithubToken, i, end, m);
}

// xox[abeoprs]- or xapp- (an app-level token) + 10+ [A-Za-z0-9-] holding a
// digit; xoxe.xoxb- / xoxe.xoxp- (configuration tokens) likewise.
bool Slack(std::string_view s, size_t i, Match* m) {
  size_t body;
  if (StartsWith(s, i, "xapp-")) {
    body = i + 5;
  } else if (StartsWith(s, i, "xoxe.xox") && (ByteAt(s, i + 8) == 'b' || ByteAt(s, i + 8) == 'p') &&
             ByteAt(s, i + 9) == '-') {
    body = i + 10;
  } else if (StartsWith(s, i, "xox") && ByteAt(s, i + 3) != 0 &&
             std::strchr("abeoprs", ByteAt(s, i + 3)) && ByteAt(s, i + 4) == '-') {
    body = i + 5;
  } else {
    return false;
  }
  bool digit = false;
  size_t end = RunEnd(s, body, [&](unsigned char c) {
    digit = digit || IsDigit(c);
    return IsAlnum(c) || c == '-';
  });
  if (end - body < 10 || !digit) return false;
  return Found(Rule::kSlackToken, i, end, m);
}

// sk- + 20+ token bytes holding a digit and a letter: sk-ant-... is
// Anthropic's, any other (sk-proj-..., sk-svcacct-...) OpenAI's.
bool Openai(std::string_view s, size_t i, Match* m) {
  if (!StartsWith(s, i, "sk-")) return false;
  bool digit = false, letter = false;
  size_t end = RunEnd(s, i + 3, [&](unsigned char c) {
    digit = digit || IsDigit(c);
    letter = letter || IsUpper(c) || IsLower(c);
    return IsTok(c);
  });
  if (end - i - 3 < 20 || !digit || !letter) return false;
  return Found(StartsWith(s, i, "sk-ant-") ? Rule::kAnthropicKey : Rule::kOpenaiKey, i, end, m);
}

// eyJ... . eyJ... . signature (possibly empty, as with alg "none"); a
// Grafana API key is base64 JSON too, without dots: eyJrIjoi + 70+.
bool Jwt(std::string_view s, size_t i, Match* m) {
  if (!StartsWith(s, i, "eyJ")) return false;
  size_t header = RunEnd(s, i, IsTok);
  if (StartsWith(s, i, "eyJrIjoi") && header - i >= 78 && ByteAt(s, header) != '.') {
    const size_t end = RunEnd(s, header, [](unsigned char c) { return c == '='; });
    return Found(Rule::kGrafanaToken, i, end, m);
  }
  if (header - i < 10 || ByteAt(s, header) != '.' || !StartsWith(s, header + 1, "eyJ"))
    return false;
  size_t payload = RunEnd(s, header + 1, IsTok);
  if (payload - header - 1 < 10 || ByteAt(s, payload) != '.') return false;
  return Found(Rule::kJwt, i, RunEnd(s, payload + 1, IsTok), m);
}

char Upper(unsigned char c) { return static_cast<char>(IsLower(c) ? c - 'a' + 'A' : c); }

bool StartsWithNoCase(std::string_view s, size_t i, std::string_view upper) {
  if (s.size() - i < upper.size()) return false;
  for (size_t k = 0; k < upper.size(); ++k) {
    if (Upper(ByteAt(s, i + k)) != upper[k]) return false;
  }
  return true;
}

// The label of a PEM or PGP line, any case: [A-Za-z0-9 _]* ending in
// "PRIVATE KEY" or "PRIVATE KEY BLOCK", then "-----". Returns the end of the
// line's dashes, or kNpos.
size_t PemLabelEnd(std::string_view s, size_t i) {
  size_t end =
      RunEndAtMost(s, i, 64, [](unsigned char c) { return IsAlnum(c) || c == ' ' || c == '_'; });
  if (end - i > 64 || !StartsWith(s, end, "-----")) return kNpos;
  for (std::string_view tail :
       {std::string_view("PRIVATE KEY"), std::string_view("PRIVATE KEY BLOCK")}) {
    if (end - i >= tail.size() && StartsWithNoCase(s, end - tail.size(), tail)) return end + 5;
  }
  return kNpos;
}

// Where the next "-----end " (any case) is at or after `from`; kNpos if none.
size_t FindEnd(std::string_view s, size_t from) {
  while (true) {
    size_t dash = s.find("-----", from);
    if (dash == kNpos) return kNpos;
    if (StartsWithNoCase(s, dash, "-----END ")) return dash;
    from = dash + 1;
  }
}

// -----BEGIN ... PRIVATE KEY----- to its END line, or to the end of the text.
bool PrivateKey(std::string_view s, size_t i, Match* m) {
  if (!StartsWithNoCase(s, i, "-----BEGIN ") || (i > 0 && ByteAt(s, i - 1) == '-')) return false;
  size_t begin_end = PemLabelEnd(s, i + 11);
  if (begin_end == kNpos) return false;
  size_t from = begin_end;
  while (true) {
    size_t end_line = FindEnd(s, from);
    if (end_line == kNpos) return Found(Rule::kPrivateKey, i, s.size(), m);
    size_t after = PemLabelEnd(s, end_line + 9);
    if (after != kNpos) return Found(Rule::kPrivateKey, i, after, m);
    from = end_line + 9;
  }
}

// 32 hex digits, "-us" and one or two digits (the trigger is the '-').
bool Mailchimp(std::string_view s, size_t i, Match* m) {
  if (!StartsWith(s, i, "-us") || !IsDigit(ByteAt(s, i + 3)) || i < 32) return false;
  for (size_t k = i - 32; k < i; ++k) {
    if (!IsHex(ByteAt(s, k))) return false;
  }
  if (i > 32 && IsTok(ByteAt(s, i - 33))) return false;
  size_t end = RunEndAtMost(s, i + 3, 2, IsDigit);
  if (end - i - 3 > 2 || IsTok(ByteAt(s, end))) return false;
  return Found(Rule::kMailchimpKey, i - 32, end, m);
}

}  // namespace

bool TryAwsKey(std::string_view s, size_t i, Match* m) { return Aws(s, i, m); }

bool TryTokenRules(std::string_view s, size_t i, Match* m) {
  if (!TokStart(s, i)) return false;
  switch (ByteAt(s, i)) {
    case 'A':
      if (Aws(s, i, m) || Google(s, i, m)) return true;
      break;
    case 'g':
      if (Github(s, i, m)) return true;
      break;
    case 'x':
      if (Slack(s, i, m)) return true;
      break;
    case 's':
      if (Openai(s, i, m)) return true;
      break;
    case 'e':
      return Jwt(s, i, m);
    default:
      break;
  }
  return TryPrefixTable(s, i, m);
}

bool TryDashRules(std::string_view s, size_t i, Match* m) {
  switch (ByteAt(s, i + 1)) {
    case '-':
      return PrivateKey(s, i, m);
    case 'u':
      return Mailchimp(s, i, m);
    default:
      return false;
  }
}

bool TryTildeRule(std::string_view s, size_t i, Match* m) {
  auto azure = [](unsigned char c) { return IsAlnum(c) || c == '_' || c == '~' || c == '.'; };
  if (i < 5 || ByteAt(s, i - 1) != 'Q' || !IsDigit(ByteAt(s, i - 2))) return false;
  const size_t begin = i - 5;
  for (size_t k = begin; k < i - 2; ++k) {
    if (!azure(ByteAt(s, k))) return false;
  }
  const unsigned char before = begin > 0 ? ByteAt(s, begin - 1) : 0;
  if (azure(before) || before == '-') return false;
  size_t end = RunEndAtMost(s, i + 1, 34, [&](unsigned char c) { return azure(c) || c == '-'; });
  if (end - i - 1 < 31 || end - i - 1 > 34) return false;
  return Found(Rule::kAzureSecret, begin, end, m);
}

bool TryDotRule(std::string_view s, size_t i, Match* m) {
  if (!StartsWith(s, i, ".atlasv1.") || i < 14) return false;
  const size_t begin = i - 14;
  for (size_t k = begin; k < i; ++k) {
    if (!IsLower(ByteAt(s, k)) && !IsDigit(ByteAt(s, k))) return false;
  }
  if (begin > 0 && IsTok(ByteAt(s, begin - 1))) return false;
  size_t end = RunEndAtMost(s, i + 9, 70, [](unsigned char c) { return IsTok(c) || c == '='; });
  if (end - i - 9 < 60 || end - i - 9 > 70) return false;
  return Found(Rule::kTerraformToken, begin, end, m);
}

}  // namespace lore::redact::internal
