// Turning the text a person typed into search terms.
//
// Any text is a valid query: it is split into words by the index's own
// tokenizer, stop words are dropped, and each remaining token is later quoted
// for FTS5, so no character of the query is ever read as FTS5 syntax.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/index/tokenizer.h"

namespace lore::search {

// At most this many distinct tokens are searched (the rarest are kept).
inline constexpr size_t kMaxQueryTokens = 32;

// A calendar date named in a query; 0 fields are unspecified.
struct DateSpec {
  int year = 0, month = 0, day = 0;
};

struct Compound {
  std::string token;      // the stem of the joined form: "destress"
  std::string written;    // as the query wrote it: "de-stress", "de stress"
  bool adjacent = false;  // two separate words (kept only when the index holds the token)
};

struct Query {
  std::vector<std::string> tokens;  // distinct, in order of first appearance
  std::vector<std::string> words;   // the written word of each token
  std::vector<Compound> compounds;  // joined forms of hyphenated or adjacent words
  bool asks_when = false;           // "when …", "what year …", "how long ago …"
  std::optional<DateSpec> date;     // "on 8 May, 2023", "in June", "in 2021"
};

Query ParseQuery(std::string_view text, index::Stemming stemming);

// The first date the words name (English month names, day numbers such as
// "8" or "8th", four-digit years); "may" and "march" count only beside a
// day or a year.
std::optional<DateSpec> FindDate(const std::vector<std::string>& words);

// The span [from, to) of UTC seconds that DateMatches accepts for `date`;
// false when it is not one span (a month without a year).
bool DateSpan(const DateSpec& date, int64_t* from, int64_t* to);

// True when `seconds` (UTC) falls on `date` (a day either side for a full
// date).
bool DateMatches(const DateSpec& date, int64_t seconds);

// True when the words (lower-case, as from index::Words) ask about a time.
bool AsksWhen(const std::vector<std::string>& words);

}  // namespace lore::search
