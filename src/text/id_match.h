// The one rule by which a person names a record by its id (`lore review
// --approve`, `lore learnings contradict`): the whole id, or a prefix of at
// least kMinIdPrefix characters that only one id starts with.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace lore::text {

inline constexpr size_t kMinIdPrefix = 4;

struct IdMatch {
  std::optional<size_t> exact;   // the first id equal to the one wanted
  std::vector<size_t> prefixed;  // ids it is a prefix of (before the exact one)

  // The one id named: the exact one, else the only prefixed one.
  std::optional<size_t> one() const {
    if (exact) return exact;
    if (prefixed.size() == 1) return prefixed[0];
    return std::nullopt;
  }
};

// Matches `want` against the ids `id_at(0)`, ..., `id_at(n - 1)` (string
// views), stopping at the first exact match.
template <class IdAt>
IdMatch MatchId(size_t n, IdAt id_at, std::string_view want) {
  IdMatch m;
  for (size_t k = 0; k < n; ++k) {
    std::string_view id = id_at(k);
    if (id.empty()) continue;
    if (id == want) {
      m.exact = k;
      break;
    }
    if (want.size() >= kMinIdPrefix && id.substr(0, want.size()) == want) m.prefixed.push_back(k);
  }
  return m;
}

}  // namespace lore::text
