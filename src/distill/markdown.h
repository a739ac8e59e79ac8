// Small Markdown and frontmatter writing helpers for the distilled pages.
// Internal to src/distill/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lore::distill {

// `s` on one line: every run of white space (newlines included) becomes one
// space, ends trimmed, and at most `max_chars` code points kept (the last
// one replaced by "…" when cut). Invalid UTF-8 bytes become U+FFFD.
std::string OneLine(std::string_view s, size_t max_chars);

// `s` for a Markdown table cell: OneLine, with '|' escaped.
std::string Cell(std::string_view s, size_t max_chars);

// A YAML scalar for `s`: plain when safe, else double-quoted with escapes.
std::string YamlScalar(std::string_view s);

// "---\ntitle: …\nupdated: …\ntags: [a, b]\n---\n": exactly the three keys.
std::string Frontmatter(std::string_view title, std::string_view updated,
                        const std::vector<std::string>& tags);

// "`x`" with backticks inside replaced, for file names.
std::string Code(std::string_view s);

// ASCII lower case, white space collapsed, trailing punctuation dropped: the
// key under which equal findings are grouped.
std::string GroupKey(std::string_view s);

// Percentage of `part` in `whole`, rounded half up ("58%").
std::string Percent(int64_t part, int64_t whole);

}  // namespace lore::distill
