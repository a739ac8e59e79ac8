#include <cstring>

#include "redact/rules.h"

namespace lore::redact::internal {
namespace {

constexpr size_t kMaxKey = 64;      // bytes of a name before '=' or ':'
constexpr size_t kMaxValue = 1024;  // bytes of an assignment's value
constexpr size_t kMaxScheme = 32;

unsigned char At(std::string_view s, size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

bool IsAlpha(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsSpace(unsigned char c) { return c == ' ' || c == '\t'; }
bool IsWhite(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsQuote(unsigned char c) { return c == '"' || c == '\''; }
bool IsKeyByte(unsigned char c) {
  return IsAlpha(c) || IsDigit(c) || c == '_' || c == '-' || c == '.';
}
bool IsSchemeByte(unsigned char c) {
  return IsAlpha(c) || IsDigit(c) || c == '+' || c == '-' || c == '.';
}
// Where the userinfo of a URL ends.
bool IsUrlStop(unsigned char c) { return IsWhite(c) || std::strchr("/?#@\"'<>\\`", c) != nullptr; }
bool IsUnquotedStop(unsigned char c) {
  return IsWhite(c) || std::strchr("\"'`,;&()[]{}<>\\", c) != nullptr;
}

bool StartsWith(std::string_view s, size_t i, std::string_view p) {
  return s.size() - i >= p.size() && std::memcmp(s.data() + i, p.data(), p.size()) == 0;
}

}  // namespace

bool ContextRules::At(size_t i, Match* m) {
  if (internal::At(s_, i) == ':' && StartsWith(s_, i, "://")) return Url(i, m);
  return Assignment(i, m);
}

// scheme://[user]:password@host: the password is replaced.
bool ContextRules::Url(size_t i, Match* m) const {
  size_t scheme = i;
  while (scheme > 0 && i - scheme < kMaxScheme && IsSchemeByte(internal::At(s_, scheme - 1))) {
    --scheme;
  }
  if (scheme == i || !IsAlpha(internal::At(s_, scheme))) return false;
  const size_t user = i + 3;
  size_t stop = user;
  while (stop < s_.size() && !IsUrlStop(internal::At(s_, stop))) ++stop;
  if (internal::At(s_, stop) != '@' || stop + 1 >= s_.size() ||
      IsUrlStop(internal::At(s_, stop + 1))) {
    return false;
  }
  const void* colon = std::memchr(s_.data() + user, ':', stop - user);
  if (!colon) return false;
  const size_t pass = static_cast<size_t>(static_cast<const char*>(colon) - s_.data()) + 1;
  std::string_view password = s_.substr(pass, stop - pass);
  if (password.empty() || password[0] == '$' || password.rfind("[REDACTED", 0) == 0 ||
      password.find_first_not_of('*') == std::string_view::npos) {
    return false;
  }
  *m = Match{Rule::kUrlPassword, pass, stop};
  return true;
}

size_t ContextRules::NextStop(size_t p, int kind) {
  auto stops = [kind](unsigned char c) {
    if (kind == 2) return IsUnquotedStop(c);
    return c == '\n' || c == '\r' || c == (kind == 0 ? '"' : '\'');
  };
  Known& k = known_[kind];
  if (k.valid && k.from <= p && p <= k.at) return k.at;
  size_t q = p;
  // Below what is known, read up to it only.
  const size_t limit = k.valid && p < k.from ? k.from : s_.size();
  while (q < limit && !stops(internal::At(s_, q))) ++q;
  if (q == limit && limit != s_.size()) q = k.at;
  k = Known{p, q, true};
  return q;
}

// name [quote] [spaces] (= | : | := | =>) [spaces] value, where the name is a
// secret's name and the value passes LooksSecret.
bool ContextRules::Assignment(size_t i, Match* m) {
  const unsigned char c = internal::At(s_, i), next = internal::At(s_, i + 1);
  const unsigned char prev = i > 0 ? internal::At(s_, i - 1) : 0;
  size_t key_end = i;
  size_t value = i + 1;
  if (c == ':') {
    if (next == ':' || next == '=' || prev == ':') return false;
  } else {
    if (next == '=' || (prev && std::strchr("=!<>+-*/%|&^~", prev))) return false;
    if (prev == ':') key_end = i - 1;
    if (next == '>') value = i + 2;
  }
  // The name, behind optional spaces and a closing quote (maybe escaped).
  size_t k = key_end;
  for (int n = 0; n < 4 && k > 0 && IsSpace(internal::At(s_, k - 1)); ++n) --k;
  if (k > 0 && IsQuote(internal::At(s_, k - 1))) {
    --k;
    if (k > 0 && internal::At(s_, k - 1) == '\\') --k;
  }
  const size_t name_end = k;
  // At most the last kMaxKey bytes of the name: what stands before them (a
  // redaction's "]" on a second pass) cannot change the verdict, so Clean
  // stays idempotent (the redact fuzzer's find).
  while (k > 0 && name_end - k < kMaxKey && IsKeyByte(internal::At(s_, k - 1))) --k;
  if (k == name_end) return false;
  if (!IsSecretName(s_.substr(k, name_end - k))) return false;
  // The value, after optional spaces and an opening quote (maybe escaped).
  for (int n = 0; n < 8 && IsSpace(internal::At(s_, value)); ++n) ++value;
  if (internal::At(s_, value) == '\\' && IsQuote(internal::At(s_, value + 1))) ++value;
  const unsigned char quote = internal::At(s_, value);
  const bool quoted = IsQuote(quote);
  size_t end;
  if (quoted) {
    ++value;
    end = NextStop(value, quote == '"' ? 0 : 1);
    if (internal::At(s_, end) != quote) return false;
    if (end > value && internal::At(s_, end - 1) == '\\') --end;
  } else {
    end = NextStop(value, 2);
    if (internal::At(s_, end) == '(') return false;  // a call in code
    // Cut by a redaction: judged before (Clean is idempotent).
    if (StartsWith(s_, end, "[REDACTED")) return false;
    // Sentence punctuation after a value is not part of it.
    while (end > value && std::strchr(".:!?", internal::At(s_, end - 1))) --end;
  }
  if (end <= value || end - value > kMaxValue) return false;
  // A known token as the value is named by its own rule.
  if (TryTokenRules(s_, value, m) && m->end <= end) return true;
  if (!LooksSecret(s_.substr(value, end - value), quoted)) return false;
  *m = Match{Rule::kAssignment, value, end};
  return true;
}

}  // namespace lore::redact::internal
