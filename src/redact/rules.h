// The rule matchers of the secret scanner. Internal to src/redact/.
//
// How a text is scanned (redact.cpp, ScanSecrets): one forward pass; a byte
// is looked up in kTriggers and passed at once unless it may start a rule:
//   - a letter where no token byte precedes: the token rules
//     (TryTokenRules), tried only when its first three bytes may start
//     some rule's prefix (MayStartToken, prefix_table.h);
//   - ':' or '=': the rules around a separator (ContextRules::At);
//   - '-': a PEM block, the "-us<n>" end of a Mailchimp key, or a shell flag
//     (ContextRules::Flag);
//   - '~' and '.': the two shapes found by their middle (an Azure client
//     secret's "Q~", Terraform's ".atlasv1.").
// A match never starts more than 40 bytes before its trigger and every scan
// forward is bounded or passes a run of bytes that no later attempt scans
// again, so the time is linear in the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "redact/redact.h"

namespace lore::redact::internal {

// A secret found: bytes [begin, end) are replaced. `begin` lies after the
// trigger for a value found by its context (a URL's password, an
// assignment's value: the scan goes on at `begin`, reading the value again),
// else at or at most 40 bytes before it (the scan goes on at `end`).
struct Match {
  Rule rule = Rule::kAssignment;
  size_t begin = 0;
  size_t end = 0;
};

enum class Trigger : uint8_t { kNone, kToken, kSeparator, kDash, kTilde, kDot };

struct TriggerTable {
  Trigger at[256] = {};
  constexpr TriggerTable() {
    for (int c = 'A'; c <= 'Z'; ++c) at[c] = Trigger::kToken;
    for (int c = 'a'; c <= 'z'; ++c) at[c] = Trigger::kToken;
    at[static_cast<unsigned char>(':')] = Trigger::kSeparator;
    at[static_cast<unsigned char>('=')] = Trigger::kSeparator;
    at[static_cast<unsigned char>('-')] = Trigger::kDash;
    at[static_cast<unsigned char>('~')] = Trigger::kTilde;
    at[static_cast<unsigned char>('.')] = Trigger::kDot;
  }
};
inline constexpr TriggerTable kTriggers;

inline unsigned char ByteAt(std::string_view s, size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}
constexpr bool IsUpper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool IsLower(unsigned char c) { return c >= 'a' && c <= 'z'; }
constexpr bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
constexpr bool IsAlnum(unsigned char c) { return IsUpper(c) || IsLower(c) || IsDigit(c); }
// The bytes of a token: base64url and the alphabets of the key formats.
constexpr bool IsTok(unsigned char c) { return IsAlnum(c) || c == '_' || c == '-'; }
// A blank inside a line; white space that may also end one.
constexpr bool IsSpace(unsigned char c) { return c == ' ' || c == '\t'; }
constexpr bool IsWhite(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline constexpr size_t kNpos = std::string_view::npos;
constexpr bool IsHex(unsigned char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// True when `prefix` stands at s[i] (short prefixes: a loop is cheaper than
// a call of memcmp).
inline bool StartsWith(std::string_view s, size_t i, std::string_view prefix) {
  if (i > s.size() || s.size() - i < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k) {
    if (s[i + k] != prefix[k]) return false;
  }
  return true;
}

// The token rules tried at s[i], a letter where no token byte
// precedes. True, filling `*m`, on a match. Each scans one run of its own
// alphabet from a position that no byte of that alphabet precedes, so no
// run is scanned twice by one rule.
bool TryTokenRules(std::string_view s, size_t i, Match* m);

// The AWS key-id rule alone, which may start after '_' or '-' (no letter or
// digit may precede it).
bool TryAwsKey(std::string_view s, size_t i, Match* m);

// The rules of the prefix table (prefix_table.h), tried at s[i].
bool TryPrefixTable(std::string_view s, size_t i, Match* m);

// The rules triggered by '-' that are not shell flags: a private key block
// ("-----BEGIN ... PRIVATE KEY-----", any case) and a Mailchimp key
// (32 hex digits, "-us" and a data-centre number).
bool TryDashRules(std::string_view s, size_t i, Match* m);
// An Azure AD client secret: 3 bytes, a digit and "Q~" (the trigger), then
// 31 to 34 of [A-Za-z0-9_~.-].
bool TryTildeRule(std::string_view s, size_t i, Match* m);
// A Terraform Cloud token: 14 [a-z0-9], ".atlasv1." (the trigger is its
// first dot), 60 to 70 of [A-Za-z0-9_=-].
bool TryDotRule(std::string_view s, size_t i, Match* m);

// The rules around a separator and the shell flags. Look-behinds are
// bounded; the look-ahead of a value is remembered, so a text full of
// separators is still read a bounded number of times. One per text; call At
// and Flag with growing positions.
class ContextRules {
 public:
  explicit ContextRules(std::string_view s) : s_(s) {}
  // At ':' or '=': url-password and webhook-url at "://", a Telegram bot
  // token, an Authorization header, an assignment.
  bool At(size_t i, Match* m);
  // At '-' where no token byte precedes: --<secret name> <value>,
  // -p<password> of mysql (mysqldump, mysqladmin, mariadb), -p <password>
  // of sshpass, -u/--user <user>:<password> of curl.
  bool Flag(size_t i, Match* m);

 private:
  bool Url(size_t i, Match* m) const;
  bool Webhook(size_t host, size_t end, Match* m) const;
  bool Telegram(size_t i, Match* m) const;
  bool Assignment(size_t i, Match* m);
  bool Header(size_t value, Match* m);
  // The value at `p` (after optional blanks and an opening quote, maybe
  // escaped): its bytes [*begin, *end) and whether it was quoted. False when
  // there is none (a quote not closed on its line, nothing but a stop byte).
  bool Value(size_t p, size_t* begin, size_t* end, bool* quoted);
  bool LongFlag(size_t i, Match* m);
  bool ShortFlag(size_t i, Match* m);
  // The first position >= p holding a stop byte of `kind` (0: '"' or a line
  // end, 1: '\'' or a line end, 2: the end of an unquoted value), or the
  // text's size.
  size_t NextStop(size_t p, int kind);
  // The program of the shell command that position `i` is part of (see
  // Program), kept up to date as positions grow.
  enum class Program : uint8_t { kOther, kMysql, kSshpass, kCurl };
  Program CommandAt(size_t i);

  struct Known {  // the first stop at or after `from` is at `at`
    size_t from = 0;
    size_t at = 0;
    bool valid = false;
  };
  std::string_view s_;
  Known known_[3];
  size_t command_scanned_ = 0;  // CommandAt has read the text up to here
  Program program_ = Program::kOther;
};

}  // namespace lore::redact::internal
