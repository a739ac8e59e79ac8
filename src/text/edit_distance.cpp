#include "lore/text/edit_distance.h"

#include <algorithm>
#include <vector>

namespace lore::text {

size_t EditDistance(std::string_view a, std::string_view b, size_t limit) {
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > limit) return limit + 1;
  std::vector<size_t> row(a.size() + 1);
  for (size_t i = 0; i <= a.size(); ++i) row[i] = i;
  for (size_t j = 1; j <= b.size(); ++j) {
    size_t diag = row[0];
    row[0] = j;
    size_t best = row[0];
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t up = row[i];
      row[i] = std::min({row[i] + 1, row[i - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
      best = std::min(best, row[i]);
    }
    if (best > limit) return limit + 1;
  }
  return row[a.size()] > limit ? limit + 1 : row[a.size()];
}

}  // namespace lore::text
