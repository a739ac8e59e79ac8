// Internal to lore::consolidate: editing the bullet lists lore keeps under
// "## <Section>" headings of a Markdown body (the summary's Discussions and
// Attempts, a knowledge page's Updates). Everything else in the body is kept
// as it is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lore::consolidate::detail {

// `s` on one line: CR, LF and tabs become spaces, runs of spaces one, trimmed.
std::string OneLine(std::string_view s);
// `s` cut to `max` code points, ending in "…" when cut.
std::string Cut(std::string_view s, size_t max);

class BulletBody {
 public:
  explicit BulletBody(std::string_view body);

  // The index of the first bullet of `section` starting with `prefix`, or -1.
  long Find(std::string_view section, std::string_view prefix) const;
  // True when `section` holds exactly the line `line`.
  bool Has(std::string_view section, std::string_view line) const;
  std::string& Line(long index) { return lines_[static_cast<size_t>(index)]; }
  // Adds `line` after the last line of `section`, creating the section at
  // the end of the body when missing.
  void Add(std::string_view section, std::string line);
  // Removes the first bullet of `section`; false when it has none.
  bool DropOldest(std::string_view section);
  // The body, every line ending in a newline.
  std::string Render() const;
  // Its length in code points.
  size_t Chars() const;

 private:
  // [header, end) of `section`, or {-1, -1}.
  std::pair<long, long> Span(std::string_view section) const;
  std::vector<std::string> lines_;
};

}  // namespace lore::consolidate::detail
