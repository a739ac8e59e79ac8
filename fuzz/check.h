// What every fuzzer uses: a property check that aborts (so libFuzzer saves the
// input as a crash) and the input as a string_view.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace lore::fuzz {

// Reports the broken property `what` on stderr and aborts.
[[noreturn]] inline void Broken(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: property broken: %s\n", file, line, what);
  std::abort();
}

inline std::string_view Input(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace lore::fuzz

// Aborts with `cond`'s text when it does not hold.
#define LORE_FUZZ_CHECK(cond) ((cond) ? (void)0 : ::lore::fuzz::Broken(#cond, __FILE__, __LINE__))
