// The names and values of the assignment rule.
#include <array>
#include <cmath>

#include "lore/redact/redact.h"

namespace lore::redact {
namespace {

constexpr std::string_view kSecretNames[] = {"password",   "passwd",      "passphrase", "secret",
                                             "token",      "api_key",     "apikey",     "api-key",
                                             "access_key", "private_key", "credential"};

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

}  // namespace

bool IsSecretName(std::string_view name) {
  char lower[64];
  if (name.size() < 3 || name.size() > sizeof lower) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view l(lower, name.size());
  // One pass: only a keyword's first letter starts a comparison.
  for (size_t i = 0; i + 3 <= l.size(); ++i) {
    const char c = l[i];
    if (c != 'p' && c != 's' && c != 't' && c != 'a' && c != 'c') continue;
    for (std::string_view k : kSecretNames) {
      if (k[0] == c && l.compare(i, k.size(), k) == 0) return true;
    }
  }
  // "key", "encryption_key", "apiKey", "ssh-key": a name ending in "key".
  return l.size() >= 3 && l.substr(l.size() - 3) == "key";
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
