// Turning the text a person typed into search terms.
//
// Any text is a valid query: it is split into words by the index's own
// tokenizer, stop words are dropped, and each remaining token is later quoted
// for FTS5, so no character of the query is ever read as FTS5 syntax.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/index/tokenizer.h"

namespace lore::search {

// At most this many distinct tokens are searched (the rarest are kept).
inline constexpr size_t kMaxQueryTokens = 32;

struct Query {
  std::vector<std::string> tokens;  // distinct, in order of first appearance
  bool asks_when = false;           // "when …", "what year …", "how long ago …"
};

Query ParseQuery(std::string_view text, index::Stemming stemming);

// True when the words (lower-case, as from index::Words) ask about a time.
bool AsksWhen(const std::vector<std::string>& words);

// The number of time expressions in `text`: weekdays, months, years
// (1900-2099), "yesterday", "last week", "ago"…
int TimeExpressions(std::string_view text);

}  // namespace lore::search
