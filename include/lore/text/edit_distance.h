// Levenshtein distance, for "did you mean" and near-duplicate slug warnings.
#pragma once

#include <cstddef>
#include <string_view>

namespace lore::text {

// Edit distance between `a` and `b` (byte-wise), stopping early and returning
// `limit + 1` once the distance is known to exceed `limit`.
size_t EditDistance(std::string_view a, std::string_view b, size_t limit = static_cast<size_t>(-1));

}  // namespace lore::text
