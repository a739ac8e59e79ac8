// The seed of a soak test's random choices (which runs are killed, and when):
// LORE_SOAK_SEED when it is set, else a fixed one, so that the same commit
// makes the same choices. The seed is printed, so a failure names the value
// that replays it: LORE_SOAK_SEED=<n> ctest -R <test>.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace lore::testing {

inline unsigned SoakSeed(const char* test) {
  unsigned seed = 1;
  if (const char* s = std::getenv("LORE_SOAK_SEED"); s && *s)
    seed = static_cast<unsigned>(std::strtoul(s, nullptr, 10));
  std::printf("soak seed of %s: %u (LORE_SOAK_SEED=%u replays its choices)\n", test, seed, seed);
  std::fflush(stdout);
  return seed;
}

}  // namespace lore::testing
