// The rules around a separator: URLs, Telegram bot tokens, Authorization
// headers and assignments.
#include <cstring>

#include "redact/rules.h"

namespace lore::redact::internal {
namespace {

constexpr size_t kMaxKey = 64;      // bytes of a name before '=' or ':'
constexpr size_t kMaxValue = 1024;  // bytes of an assignment's value
constexpr size_t kMaxScheme = 32;

bool IsAlpha(unsigned char c) { return IsUpper(c) || IsLower(c); }
bool IsQuote(unsigned char c) { return c == '"' || c == '\''; }
bool IsKeyByte(unsigned char c) { return IsAlnum(c) || c == '_' || c == '-' || c == '.'; }
bool IsSchemeByte(unsigned char c) { return IsAlnum(c) || c == '+' || c == '-' || c == '.'; }
// Where the authority of a URL (userinfo@host:port) ends. Not at '#': a
// password written raw may hold one (a fragment follows a path).
bool IsAuthorityStop(unsigned char c) {
  return IsWhite(c) || std::strchr("/?\"'<>\\`", c) != nullptr;
}
bool IsUnquotedStop(unsigned char c) {
  return IsWhite(c) || std::strchr("\"'`,;&()[]{}<>\\", c) != nullptr;
}

bool EndsWithNoCase(std::string_view s, std::string_view lower) {
  if (s.size() < lower.size()) return false;
  for (size_t k = 0; k < lower.size(); ++k) {
    unsigned char c = static_cast<unsigned char>(s[s.size() - lower.size() + k]);
    if ((IsUpper(c) ? c - 'A' + 'a' : c) != static_cast<unsigned char>(lower[k])) return false;
  }
  return true;
}

bool IsPlaceholder(std::string_view v) {
  return v.empty() || v[0] == '$' || v.rfind("[REDACTED", 0) == 0 ||
         v.find_first_not_of('*') == kNpos;
}

}  // namespace

bool ContextRules::At(size_t i, Match* m) {
  if (ByteAt(s_, i) == ':') {
    if (StartsWith(s_, i, "://")) return Url(i, m);
    if (Telegram(i, m)) return true;
  }
  return Assignment(i, m);
}

// scheme://[user]:password@host: the password is replaced (it may hold '@':
// the host follows the last one). Without userinfo, a webhook URL.
bool ContextRules::Url(size_t i, Match* m) const {
  size_t scheme = i;
  while (scheme > 0 && i - scheme < kMaxScheme && IsSchemeByte(ByteAt(s_, scheme - 1))) --scheme;
  if (scheme == i || !IsAlpha(ByteAt(s_, scheme))) return false;
  const size_t user = i + 3;
  size_t stop = user, at = kNpos;
  for (; stop < s_.size() && !IsAuthorityStop(ByteAt(s_, stop)); ++stop) {
    if (ByteAt(s_, stop) == '@') at = stop;
  }
  if (at == kNpos) return Webhook(user, stop, m);
  if (at + 1 >= stop) return false;  // no host
  const void* colon = std::memchr(s_.data() + user, ':', at - user);
  if (!colon) return false;
  const size_t pass = static_cast<size_t>(static_cast<const char*>(colon) - s_.data()) + 1;
  if (IsPlaceholder(s_.substr(pass, at - pass))) return false;
  *m = Match{Rule::kUrlPassword, pass, at};
  return true;
}

// The secret path of a Slack (hooks.slack.com/services/...), Discord
// (discord[app].com/api/webhooks/...) or Microsoft Teams
// (*.webhook.office.com/webhookb2/..., outlook.office.com/webhook/...)
// webhook: what follows the fixed part, 20 bytes or more.
bool ContextRules::Webhook(size_t host, size_t end, Match* m) const {
  const std::string_view h = s_.substr(host, end - host);
  std::string_view fixed;
  if (h == "hooks.slack.com") {
    for (std::string_view p : {"/services/", "/workflows/", "/triggers/"}) {
      if (StartsWith(s_, end, p)) fixed = p;
    }
  } else if (h == "discord.com" || h == "discordapp.com" || EndsWithNoCase(h, ".discord.com")) {
    if (StartsWith(s_, end, "/api/webhooks/")) fixed = "/api/webhooks/";
  } else if (EndsWithNoCase(h, ".webhook.office.com")) {
    if (StartsWith(s_, end, "/webhookb2/")) fixed = "/webhookb2/";
  } else if (h == "outlook.office.com") {
    if (StartsWith(s_, end, "/webhook/")) fixed = "/webhook/";
  }
  if (fixed.empty()) return false;
  const size_t begin = end + fixed.size();
  size_t stop = begin;
  while (stop < s_.size() && !IsWhite(ByteAt(s_, stop)) &&
         !std::strchr("?#\"'<>\\`", ByteAt(s_, stop))) {
    ++stop;
  }
  if (stop - begin < 20 || StartsWith(s_, begin, "[REDACTED")) return false;
  *m = Match{Rule::kWebhookUrl, begin, stop};
  return true;
}

// 5 to 16 digits, ':' (the trigger), 'A' and 34 token bytes.
bool ContextRules::Telegram(size_t i, Match* m) const {
  if (i == 0 || !IsDigit(ByteAt(s_, i - 1)) || ByteAt(s_, i + 1) != 'A') return false;
  size_t begin = i;
  while (begin > 0 && i - begin < 17 && IsDigit(ByteAt(s_, begin - 1))) --begin;
  if (i - begin < 5 || i - begin > 16 || (begin > 0 && IsTok(ByteAt(s_, begin - 1)))) return false;
  size_t end = i + 1;
  while (end < s_.size() && end - i <= 36 && IsTok(ByteAt(s_, end))) ++end;
  if (end - i - 1 != 35) return false;
  *m = Match{Rule::kTelegramToken, begin, end};
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
  while (q < limit && !stops(ByteAt(s_, q))) ++q;
  if (q == limit && limit != s_.size()) q = k.at;
  k = Known{p, q, true};
  return q;
}

bool ContextRules::Value(size_t p, size_t* begin, size_t* end, bool* quoted) {
  for (int n = 0; n < 8 && IsSpace(ByteAt(s_, p)); ++n) ++p;
  if (ByteAt(s_, p) == '\\' && IsQuote(ByteAt(s_, p + 1))) ++p;
  const unsigned char quote = ByteAt(s_, p);
  *quoted = IsQuote(quote);
  size_t e;
  if (*quoted) {
    ++p;
    e = NextStop(p, quote == '"' ? 0 : 1);
    if (ByteAt(s_, e) != quote) return false;
    if (e > p && ByteAt(s_, e - 1) == '\\') --e;
  } else {
    e = NextStop(p, 2);
    if (ByteAt(s_, e) == '(') return false;  // a call in code
    // Cut by a redaction: judged before (Clean is idempotent).
    if (StartsWith(s_, e, "[REDACTED")) return false;
    // Sentence punctuation after a value is not part of it.
    while (e > p && std::strchr(".:!?", ByteAt(s_, e - 1))) --e;
  }
  if (e <= p || e - p > kMaxValue) return false;
  *begin = p;
  *end = e;
  return true;
}

// name [quote] [spaces] (= | : | := | =>) [spaces] value, where the name is a
// secret's name and the value passes LooksSecret; or an Authorization
// header's credentials.
bool ContextRules::Assignment(size_t i, Match* m) {
  const unsigned char c = ByteAt(s_, i), next = ByteAt(s_, i + 1);
  const unsigned char prev = i > 0 ? ByteAt(s_, i - 1) : 0;
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
  for (int n = 0; n < 4 && k > 0 && IsSpace(ByteAt(s_, k - 1)); ++n) --k;
  if (k > 0 && IsQuote(ByteAt(s_, k - 1))) {
    --k;
    if (k > 0 && ByteAt(s_, k - 1) == '\\') --k;
  }
  const size_t name_end = k;
  // At most the last kMaxKey bytes of the name: what stands before them (a
  // redaction's "]" on a second pass) cannot change the verdict, so Clean
  // stays idempotent (the redact fuzzer's find).
  while (k > 0 && name_end - k < kMaxKey && IsKeyByte(ByteAt(s_, k - 1))) --k;
  if (k == name_end) return false;
  const std::string_view name = s_.substr(k, name_end - k);
  if (c == ':' && EndsWithNoCase(name, "authorization")) return Header(value, m);
  if (!IsSecretName(name)) return false;
  size_t begin, end;
  bool quoted;
  if (!Value(value, &begin, &end, &quoted)) return false;
  // A known token as the value is named by its own rule.
  if (TryTokenRules(s_, begin, m) && m->end <= end) return true;
  if (!LooksSecret(s_.substr(begin, end - begin), quoted)) return false;
  *m = Match{Rule::kAssignment, begin, end};
  return true;
}

// "Authorization: <scheme> <credentials>" (Bearer, Basic, Token...) or
// "Authorization: <credentials>": the credentials are replaced when they
// pass the value test (letters alone, unquoted, are a word: "Negotiate").
bool ContextRules::Header(size_t p, Match* m) {
  for (int n = 0; n < 8 && IsSpace(ByteAt(s_, p)); ++n) ++p;
  if (ByteAt(s_, p) == '\\' && IsQuote(ByteAt(s_, p + 1))) ++p;
  const bool quoted = IsQuote(ByteAt(s_, p));
  if (quoted) ++p;
  size_t word = p;
  while (word < s_.size() && word - p <= 16 && IsAlpha(ByteAt(s_, word))) ++word;
  size_t begin = p;
  if (word > p && word - p <= 16 && IsSpace(ByteAt(s_, word))) {
    begin = word;
    while (begin < s_.size() && begin - word < 8 && IsSpace(ByteAt(s_, begin))) ++begin;
  }
  auto credential = [](unsigned char c) {
    return IsAlnum(c) || std::strchr("-._~+/=", c) != nullptr;
  };
  size_t end = begin;
  while (end < s_.size() && end - begin <= kMaxValue && credential(ByteAt(s_, end))) ++end;
  if (end == begin || end - begin > kMaxValue) return false;
  if (TryTokenRules(s_, begin, m) && m->end <= end) return true;
  if (!LooksSecret(s_.substr(begin, end - begin), quoted)) return false;
  *m = Match{Rule::kAuthorization, begin, end};
  return true;
}

}  // namespace lore::redact::internal
