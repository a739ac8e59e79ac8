// The names and values of the assignment rule.
#include <array>
#include <cmath>

#include "redact/redact.h"

namespace lore::redact {
namespace {

constexpr size_t kMinValue = 8;
constexpr size_t kMaxValue = 1024;
constexpr double kMinEntropy = 2.5;  // bits per byte

bool IsPlaceholder(std::string_view v) {
  if (v[0] == '$' || v[0] == '%' || v[0] == '<') return true;
  // A value holding a redaction already was judged: judging it again must
  // not change the answer (cleaning is idempotent).
  if (v.rfind("{{", 0) == 0 || v.find("[REDACTED") != std::string_view::npos) return true;
  return v.find_first_not_of(v[0]) == std::string_view::npos;  // ********, xxxxxxxx
}

double Entropy(std::string_view v) {
  std::array<uint32_t, 256> count{};
  for (char c : v) ++count[static_cast<unsigned char>(c)];
  double h = 0;
  const double n = static_cast<double>(v.size());
  for (uint32_t k : count) {
    if (k == 0) continue;
    const double p = k / n;
    h -= p * std::log2(p);
  }
  return h;
}

// `l` holds `word` at `i` (short words: a loop is cheaper than memcmp).
bool HasAt(std::string_view l, size_t i, std::string_view word) {
  if (i > l.size() || l.size() - i < word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (l[i + k] != word[k]) return false;
  }
  return true;
}

bool EndsIn(std::string_view l, std::string_view word) {
  return l.size() >= word.size() && HasAt(l, l.size() - word.size(), word);
}

// True when one of the keywords of IsSecretName starts at l[i]: password,
// passwd, passphrase, private_key, secret, token, api_key, apikey, api-key,
// access_key, credential, creds.
bool KeywordAt(std::string_view l, size_t i) {
  switch (l[i]) {
    case 'p':
      return (HasAt(l, i, "pass") &&
              (HasAt(l, i + 4, "word") || HasAt(l, i + 4, "wd") || HasAt(l, i + 4, "phrase"))) ||
             HasAt(l, i, "private_key");
    case 's':
      return HasAt(l, i, "secret");
    case 't':
      return HasAt(l, i, "token");
    case 'a':
      return (HasAt(l, i, "api") &&
              (HasAt(l, i + 3, "_key") || HasAt(l, i + 3, "key") || HasAt(l, i + 3, "-key"))) ||
             HasAt(l, i, "access_key");
    case 'c':
      return HasAt(l, i, "cred") && (HasAt(l, i + 4, "ential") || HasAt(l, i + 4, "s"));
    default:
      return false;
  }
}

// True when `lower` (`name` in lower case) holds one of the keywords or ends
// in one of the words of IsSecretName.
bool HasSecretWord(std::string_view name, std::string_view l) {
  for (size_t i = 0; i + 3 <= l.size(); ++i) {
    if (KeywordAt(l, i)) return true;
  }
  // "key", "encryption_key", "apiKey", "ssh-key"; "auth", "basicAuth".
  if (EndsIn(l, "key") || EndsIn(l, "auth")) return true;
  // "DB_PASS", "smtpPass", "mysql_pwd": the last word of the name.
  for (std::string_view word : {std::string_view("pass"), std::string_view("pwd")}) {
    if (!EndsIn(l, word) || l.size() == word.size()) continue;
    const char before = name[name.size() - word.size() - 1];
    const char first = name[name.size() - word.size()];
    const bool letter_before = (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z');
    if (!letter_before || (first >= 'A' && first <= 'Z' && before >= 'a' && before <= 'z')) {
      return true;
    }
  }
  return l == "pass";
}

// True when the last word of `name` ("token_file", "secretName", "KEY-ID")
// says that its value names, counts or locates a secret rather than being one.
bool NamesAboutSecret(std::string_view name, std::string_view lower) {
  static constexpr std::string_view kWords[] = {"file", "path",   "dir",  "name", "id",
                                                "url",  "uri",    "env",  "var",  "endpoint",
                                                "type", "length", "size", "count"};
  for (std::string_view w : kWords) {
    if (lower.size() <= w.size() || !EndsIn(lower, w)) continue;
    const size_t at = name.size() - w.size();
    const char before = name[at - 1], first = name[at];
    const bool camel = first >= 'A' && first <= 'Z' && before >= 'a' && before <= 'z';
    if (before == '_' || before == '-' || before == '.' || camel) return true;
  }
  return false;
}

}  // namespace

bool IsSecretName(std::string_view name) {
  char lower[64];
  if (name.size() < 3 || name.size() > sizeof lower) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view l(lower, name.size());
  return HasSecretWord(name, l) && !NamesAboutSecret(name, l);
}

bool LooksSecret(std::string_view v, bool quoted) {
  if (v.size() < kMinValue || v.size() > kMaxValue || IsPlaceholder(v)) return false;
  bool lower = false, upper = false, digit = false, other = false, name_like = true;
  for (char ch : v) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool l = c >= 'a' && c <= 'z', u = c >= 'A' && c <= 'Z', d = c >= '0' && c <= '9';
    lower |= l, upper |= u, digit |= d, other |= !(l || u || d);
    name_like = name_like && (l || u || c == '_' || c == '.');
  }
  if (!quoted && name_like) return false;
  if (lower + upper + digit + other < 2) return false;
  return Entropy(v) >= kMinEntropy;
}

}  // namespace lore::redact
