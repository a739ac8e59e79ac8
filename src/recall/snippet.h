// What recall shows of an item's text (docs/recall.md "Prompt-time recall",
// step 5): one line, the frontmatter left out, and snippets that bring each
// of the query's words once.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "lore/index/tokenizer.h"

namespace lore::recall {

// The query's tokens with their idf in this index.
struct QueryTerms {
  std::unordered_map<std::string, double> idf;
  double total = 0;
};

// `text` on one line: white space runs (newlines included) made one space.
std::string OneLine(std::string_view text);

// A Markdown record's text without its frontmatter (what a person reads).
std::string_view Body(std::string_view text);

// What of `line` (one line of text) to show in at most `max` bytes: the whole
// line when it fits, else up to three fragments, each the window that holds
// the most query weight not shown yet (a term counts once: a second fragment
// brings what the first lacks), grown into what follows them, in the line's
// order, cut at word boundaries and joined by " … ".
std::string Snippet(const std::string& line, size_t max, const QueryTerms& q,
                    index::Stemming stemming);

}  // namespace lore::recall
