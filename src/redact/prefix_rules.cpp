// Matching the prefix table (prefix_table.h).
#include "redact/prefix_table.h"
#include "redact/rules.h"

namespace lore::redact::internal {
namespace {

constexpr size_t kRules = sizeof kPrefixRules / sizeof kPrefixRules[0];

// The rules by first byte: rules order[first[c]] .. order[first[c + 1] - 1]
// start with byte c (a counting sort, done by the compiler).
struct ByFirstByte {
  uint16_t first[257] = {};
  uint16_t order[kRules] = {};
  constexpr ByFirstByte() {
    for (const PrefixRule& r : kPrefixRules) ++first[static_cast<unsigned char>(r.prefix[0]) + 1];
    for (int c = 0; c < 256; ++c) first[c + 1] += first[c];
    uint16_t next[256] = {};
    for (int c = 0; c < 256; ++c) next[c] = first[c];
    for (size_t k = 0; k < kRules; ++k) {
      order[next[static_cast<unsigned char>(kPrefixRules[k].prefix[0])]++] =
          static_cast<uint16_t>(k);
    }
  }
};
constexpr ByFirstByte kByFirstByte;

bool InAlpha(Alpha a, unsigned char c) {
  switch (a) {
    case Alpha::kAlnum:
      return IsAlnum(c);
    case Alpha::kTok:
      return IsTok(c);
    case Alpha::kHex:
      return IsHex(c);
    case Alpha::kHexDash:
      return IsHex(c) || c == '-';
    case Alpha::kUpperDigit:
      return IsUpper(c) || IsDigit(c);
    case Alpha::kB64:
      return IsTok(c) || c == '+' || c == '/' || c == '=';
    case Alpha::kTokDot:
      return IsTok(c) || c == '.';
    case Alpha::kTokEq:
      return IsTok(c) || c == '=';
    case Alpha::kTokDotEq:
      return IsTok(c) || c == '.' || c == '=';
    case Alpha::kAlnumDot:
      return IsAlnum(c) || c == '.';
  }
  return false;
}

// A digit, or both an upper- and a lower-case letter: not a word or a name
// written after the prefix ("hf_hub_download", "sk_live_mode").
bool Varied(std::string_view body) {
  bool digit = false, upper = false, lower = false;
  for (char ch : body) {
    const auto c = static_cast<unsigned char>(ch);
    digit = digit || IsDigit(c);
    upper = upper || IsUpper(c);
    lower = lower || IsLower(c);
  }
  return digit || (upper && lower);
}

bool Try(const PrefixRule& r, std::string_view s, size_t i, Match* m) {
  if (ByteAt(s, i + 1) != static_cast<unsigned char>(r.prefix[1])) return false;
  if (!StartsWith(s, i, r.prefix)) return false;
  if (i > 0 && InAlpha(r.alpha, ByteAt(s, i - 1))) return false;
  const size_t body = i + r.prefix.size();
  const size_t limit = body + r.max + 1 < s.size() ? body + r.max + 1 : s.size();
  size_t end = body;
  while (end < limit && InAlpha(r.alpha, ByteAt(s, end))) ++end;
  const size_t n = end - body;
  if (n < r.min || n > r.max) return false;
  const unsigned char after = ByteAt(s, end);
  if (IsAlnum(after) || after == '_') return false;
  if (!Varied(s.substr(body, n))) return false;
  *m = Match{r.rule, i, end};
  return true;
}

}  // namespace

bool TryPrefixTable(std::string_view s, size_t i, Match* m) {
  const unsigned char c = ByteAt(s, i);
  for (uint16_t k = kByFirstByte.first[c]; k < kByFirstByte.first[c + 1]; ++k) {
    if (Try(kPrefixRules[kByFirstByte.order[k]], s, i, m)) return true;
  }
  return false;
}

}  // namespace lore::redact::internal
