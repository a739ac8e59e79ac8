#include "text/table.h"

namespace lore::text {

std::string_view FindTableLine(std::string_view table, std::string_view key) {
  size_t lo = 0, hi = table.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    size_t start = mid;
    while (start > lo && table[start - 1] != '\n') --start;
    size_t end = table.find('\n', start);
    if (end == std::string_view::npos) end = table.size();
    std::string_view line = table.substr(start, end - start);
    std::string_view k = line.substr(0, line.find('\t'));
    if (k == key) return line;
    if (k < key) {
      lo = end + 1;
    } else {
      hi = start;
    }
  }
  return {};
}

}  // namespace lore::text
