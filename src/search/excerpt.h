// The excerpt shown with a hit: its best line with up to 3 lines either side.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lore/index/tokenizer.h"

namespace lore::search {

inline constexpr int kExcerptRadius = 3;

struct Excerpt {
  int64_t line = 0;  // 1-based line (in the file) of the best line
  std::string text;  // the lines, joined by '\n', without a final newline
};

// The best line of `text` is the one whose tokens carry the most weight
// (`weights`: token -> weight; each token counted once per line); ties go to
// the earlier line. With no line matching, the first non-blank line after any
// frontmatter. A text with frontmatter and a body never shows its frontmatter:
// the best line is the body's, and the lines around it stop at the body's
// start. `first_line` is the file line where `text` starts.
Excerpt MakeExcerpt(std::string_view text, int64_t first_line,
                    const std::unordered_map<std::string, double>& weights,
                    index::Stemming stemming, int radius = kExcerptRadius);

// The excerpt of a whole turn (a session log's record): all of `text` when
// it holds at most `max_bytes`, else its best line (chosen as above) with the
// lines around it, alternately after and before, while they fit.
inline constexpr size_t kTurnExcerptBytes = 1500;
Excerpt MakeTurnExcerpt(std::string_view text, int64_t first_line,
                        const std::unordered_map<std::string, double>& weights,
                        index::Stemming stemming, size_t max_bytes = kTurnExcerptBytes);

}  // namespace lore::search
