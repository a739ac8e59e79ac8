// The rule matchers of the secret scanner. Internal to src/redact/.
#pragma once

#include <cstddef>
#include <string_view>

#include "lore/redact/redact.h"

namespace lore::redact::internal {

// A secret found: bytes [begin, end) are replaced; scanning goes on at `end`.
// `begin` may lie after the trigger (the password of a URL, the value of an
// assignment), never before it; `end` always lies after the trigger.
struct Match {
  Rule rule = Rule::kAssignment;
  size_t begin = 0;
  size_t end = 0;
};

// The bytes that may start a match: the scanner passes every other byte at
// once (a table look-up).
struct TriggerTable {
  bool at[256] = {};
  constexpr TriggerTable() {
    for (unsigned char c : {'A', 'g', 'x', 's', 'e', '-', ':', '='}) at[c] = true;
  }
};
inline constexpr TriggerTable kTriggers;
inline bool IsTrigger(unsigned char c) { return kTriggers.at[c]; }

// A cheap look at the byte after a token rule's trigger s[i].
inline bool MayStartToken(std::string_view s, size_t i) {
  const unsigned char next = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
  switch (s[i]) {
    case 'A':
      return next >= 'B' && next <= 'S';  // AKIA, ASIA, ABIA, ..., AIza
    case 'g':
      return next == 'h' || next == 'i';
    case 'x':
      return next == 'o';
    case 's':
      return next == 'k';
    case 'e':
      return next == 'y';
    case '-':
      return next == '-';
    default:
      return false;
  }
}

// The rules of fixed prefixes (aws-access-key, google-api-key, github-token,
// slack-token, openai-key, jwt, private-key), tried at s[i]. True, filling
// `*m`, on a match. A token rule starts only where no token byte
// ([A-Za-z0-9_-]) precedes and scans one run of token bytes, so that two
// attempts never scan the same run: the scan stays linear.
bool TryTokenRules(std::string_view s, size_t i, Match* m);

// The rules around a separator: url-password at "://" and assignment at '='
// or ':'. Look-behinds are bounded; the look-ahead of an assignment value is
// remembered, so a text full of separators is still read a bounded number of
// times. One per text; call At with growing positions.
class ContextRules {
 public:
  explicit ContextRules(std::string_view s) : s_(s) {}
  bool At(size_t i, Match* m);

 private:
  bool Url(size_t i, Match* m) const;
  bool Assignment(size_t i, Match* m);
  // The first position >= p holding a stop byte of `kind` (0: '"' or a line
  // end, 1: '\'' or a line end, 2: the end of an unquoted value), or the
  // text's size.
  size_t NextStop(size_t p, int kind);

  struct Known {  // the first stop at or after `from` is at `at`
    size_t from = 0;
    size_t at = 0;
    bool valid = false;
  };
  std::string_view s_;
  Known known_[3];
};

}  // namespace lore::redact::internal
