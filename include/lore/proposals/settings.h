// The proposal settings of config.toml (table [memory.proposals]).
#pragma once

#include <cstdint>

#include "lore/config/config.h"
#include "lore/error.h"

namespace lore::proposals {

inline const config::Key<bool> kEnabledKey{"memory.proposals.enabled", true};
inline const config::Key<int64_t> kQuotaKey{"memory.proposals.quota_per_wave", 5};
inline const config::Key<double> kFloorKey{"memory.proposals.confidence_floor", 0.5};

struct Settings {
  bool enabled = true;
  int64_t quota_per_wave = 5;     // proposals kept per wave (>= 0)
  double confidence_floor = 0.5;  // in [0, 1]
};

// Reads the settings, checking types and ranges; an unknown key in
// [memory.proposals] is an error too (a misspelt key must not be ignored).
Result<Settings> LoadSettings(const config::Config& config);

}  // namespace lore::proposals
