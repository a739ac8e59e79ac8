#include "lore/proposals/settings.h"

#include <cmath>

#include "lore/text/edit_distance.h"

namespace lore::proposals {

Result<Settings> LoadSettings(const config::Config& c) {
  static const char* kKnown[] = {"memory.proposals.enabled", "memory.proposals.quota_per_wave",
                                 "memory.proposals.confidence_floor"};
  for (const std::string& key : c.KeysIn("memory.proposals")) {
    bool known = false;
    std::string best;
    for (const char* k : kKnown) {
      known = known || key == k;
      std::string_view tail = std::string_view(k).substr(17);
      if (text::EditDistance(key.substr(17), tail, 4) <= 4) best = k;
    }
    if (!known) {
      return tl::unexpected(c.ValueError(
          key, "unknown setting",
          best.empty() ? "remove it (docs/config.md lists every key)"
                       : "did you mean " + best + "? (docs/config.md lists every key)"));
    }
  }
  Settings s;
  LORE_ASSIGN(s.enabled, c.Get(kEnabledKey));
  LORE_ASSIGN(s.quota_per_wave, c.Get(kQuotaKey));
  LORE_ASSIGN(s.confidence_floor, c.Get(kFloorKey));
  if (s.quota_per_wave < 0) {
    return tl::unexpected(c.ValueError(kQuotaKey.name, "must not be negative",
                                       "set it to the number of proposals kept per wave, e.g. 5"));
  }
  if (!std::isfinite(s.confidence_floor) || s.confidence_floor < 0 || s.confidence_floor > 1) {
    return tl::unexpected(c.ValueError(kFloorKey.name, "must be a number from 0 to 1",
                                       "set it to the lowest confidence to keep, e.g. 0.5"));
  }
  return s;
}

}  // namespace lore::proposals
