#include "lore/redact/redact.h"

#include <algorithm>
#include <cstring>

#include "redact/rules.h"

namespace lore::redact {
namespace {

constexpr int kMaxSpanPasses = 4;

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// The length of a <private> (close: </private>) tag at s[i], any case, with
// spaces before '>'; 0 when there is none.
size_t TagAt(std::string_view s, size_t i, bool close) {
  std::string_view name = close ? "</private" : "<private";
  if (s.size() - i < name.size()) return 0;
  for (size_t k = 0; k < name.size(); ++k) {
    if (Lower(s[i + k]) != name[k]) return 0;
  }
  size_t j = i + name.size();
  while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
  return j < s.size() && s[j] == '>' ? j + 1 - i : 0;
}

// The outermost private spans, tags included; an unclosed one runs to the end.
std::vector<Finding> PrivateSpans(std::string_view s) {
  std::vector<Finding> out;
  size_t depth = 0, start = 0;
  for (size_t i = 0; i < s.size();) {
    const void* lt = std::memchr(s.data() + i, '<', s.size() - i);
    if (!lt) break;
    i = static_cast<size_t>(static_cast<const char*>(lt) - s.data());
    if (size_t n = TagAt(s, i, false)) {
      if (depth++ == 0) start = i;
      i += n;
    } else if (size_t c = depth > 0 ? TagAt(s, i, true) : 0) {
      i += c;
      if (--depth == 0) out.push_back({Rule::kPrivate, start, i - start});
    } else {
      ++i;
    }
  }
  if (depth > 0) out.push_back({Rule::kPrivate, start, s.size() - start});
  return out;
}

// The secrets of `s`, at offsets shifted by `base`.
void ScanSecrets(std::string_view s, size_t base, std::vector<Finding>* out) {
  internal::ContextRules context(s);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    while (i < n && !internal::IsTrigger(p[i])) ++i;
    if (i == n) break;
    internal::Match m;
    const bool around = p[i] == ':' || p[i] == '=';
    const bool hit = around ? context.At(i, &m)
                            : internal::MayStartToken(s, i) && internal::TryTokenRules(s, i, &m);
    if (!hit) {
      ++i;
      continue;
    }
    Finding f{m.rule, base + m.begin, m.end - m.begin};
    if (!out->empty() && out->back().offset + out->back().length > f.offset) {
      Finding& last = out->back();  // overlapping matches are one
      last.length = std::max(last.offset + last.length, f.offset + f.length) - last.offset;
    } else {
      out->push_back(f);
    }
    // A token is passed over; a value found by its context is read again
    // (still forwards: it starts after the trigger), so that a quote opened
    // before a secret cannot hide it.
    i = around ? m.begin : m.end;
  }
}

// `text` without `spans`.
std::string Without(std::string_view text, const std::vector<Finding>& spans) {
  std::string kept;
  size_t from = 0;
  for (const Finding& span : spans) {
    kept.append(text.substr(from, span.offset - from));
    from = span.offset + span.length;
  }
  kept.append(text.substr(from));
  return kept;
}

}  // namespace

std::string_view RuleName(Rule rule) {
  switch (rule) {
    case Rule::kPrivate:
      return "private";
    case Rule::kAwsAccessKey:
      return "aws-access-key";
    case Rule::kGithubToken:
      return "github-token";
    case Rule::kSlackToken:
      return "slack-token";
    case Rule::kOpenaiKey:
      return "openai-key";
    case Rule::kGoogleApiKey:
      return "google-api-key";
    case Rule::kPrivateKey:
      return "private-key";
    case Rule::kJwt:
      return "jwt";
    case Rule::kUrlPassword:
      return "url-password";
    case Rule::kAssignment:
      return "assignment";
  }
  return "secret";
}

std::vector<Finding> Scan(std::string_view text) {
  std::vector<Finding> spans = PrivateSpans(text);
  std::vector<Finding> out;
  size_t from = 0;
  for (const Finding& span : spans) {
    ScanSecrets(text.substr(from, span.offset - from), from, &out);
    out.push_back(span);
    from = span.offset + span.length;
  }
  ScanSecrets(text.substr(from), from, &out);
  return out;
}

bool HasFindings(std::string_view text) { return !Scan(text).empty(); }

std::string Clean(std::string_view text, std::vector<Finding>* findings) {
  std::vector<Finding> spans = PrivateSpans(text);
  std::string kept;
  std::string_view rest = text;
  if (!spans.empty()) {
    kept = Without(text, spans);
    // Dropping a span can join a new tag ("<priv" + "ate>"): drop again, a
    // few times, then everything from the first tag left to the end, so
    // that the result holds no span (Clean is idempotent).
    for (int pass = 0; pass < kMaxSpanPasses; ++pass) {
      std::vector<Finding> again = PrivateSpans(kept);
      if (again.empty()) break;
      if (pass + 1 == kMaxSpanPasses) {
        kept.resize(again.front().offset);
      } else {
        kept = Without(kept, again);
      }
    }
    rest = kept;
  }
  std::vector<Finding> secrets;
  ScanSecrets(rest, 0, &secrets);
  if (findings) {
    findings->insert(findings->end(), spans.begin(), spans.end());
    findings->insert(findings->end(), secrets.begin(), secrets.end());
  }
  if (secrets.empty()) return std::string(rest);
  std::string out;
  out.reserve(rest.size());
  size_t from = 0;
  for (const Finding& f : secrets) {
    out.append(rest.substr(from, f.offset - from));
    out.append("[REDACTED:").append(RuleName(f.rule)).append("]");
    from = f.offset + f.length;
  }
  out.append(rest.substr(from));
  return out;
}

bool CleanNamedValue(std::string_view name, std::string_view value, std::string* out) {
  const bool named = IsSecretName(name);
  if (Scan(value).empty()) {  // the common case: nothing is copied
    if (!named || !LooksSecret(value, /*quoted=*/true)) return false;
    *out = "[REDACTED:assignment]";
    return true;
  }
  std::string cleaned = Clean(value);
  *out =
      named && LooksSecret(cleaned, /*quoted=*/true) ? "[REDACTED:assignment]" : std::move(cleaned);
  return true;
}

}  // namespace lore::redact
