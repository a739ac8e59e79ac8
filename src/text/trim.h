// Trimming white space from the ends of a string view, folding it, lower-casing ASCII.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lore::text {

// `s` without leading and trailing characters from `chars` (default: ASCII white space).
inline std::string_view Trim(std::string_view s, std::string_view chars = " \t\r\n\v\f") {
  size_t b = s.find_first_not_of(chars);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(chars) - b + 1);
}

// `s` without trailing characters from `chars` (default: ASCII white space);
// TrimEnd(line, "\r\n") is a line without its line break.
inline std::string_view TrimEnd(std::string_view s, std::string_view chars = " \t\r\n\v\f") {
  size_t e = s.find_last_not_of(chars);
  return e == std::string_view::npos ? std::string_view() : s.substr(0, e + 1);
}

// `s` on one line: each run of characters from `space` becomes one ' ', none
// is kept at either end. Stops once the result is longer than `stop_after`
// bytes (for callers that cut it anyway).
inline std::string FoldSpace(std::string_view s, size_t stop_after = SIZE_MAX,
                             std::string_view space = " \t\r\n\v\f") {
  std::string out;
  bool pending = false;
  for (char c : s) {
    if (space.find(c) != std::string_view::npos) {
      pending = !out.empty();
      continue;
    }
    if (pending) out += ' ';
    pending = false;
    out += c;
    if (out.size() > stop_after) break;
  }
  return out;
}

// `s` with ASCII letters lower-cased (other bytes, UTF-8 included, kept).
inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The runs of `s` between characters of `separators`, none of them empty
// ("a  b\tc" is a, b, c).
inline std::vector<std::string_view> Fields(std::string_view s,
                                            std::string_view separators = " \t") {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t a = s.find_first_not_of(separators, pos);
    if (a == std::string_view::npos) break;
    size_t b = s.find_first_of(separators, a);
    if (b == std::string_view::npos) b = s.size();
    out.push_back(s.substr(a, b - a));
    pos = b;
  }
  return out;
}

// The parts, `sep` between each two.
inline std::string Joined(const std::vector<std::string>& parts, std::string_view sep = "; ") {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

}  // namespace lore::text
