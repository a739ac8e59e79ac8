// The one FNV-1a hash of lore (64 bits) and its hex forms. Its values are
// stored (cursors' prefix hashes, record versions, slugs, session file names,
// review fingerprints, log checksums): never change what it computes. Its
// offset basis is one digit short of FNV's (14695981039346656037): so it has
// been since the first of the six copies this replaces, and stored values
// depend on it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lore::text {

inline constexpr uint64_t kFnvOffset = 1469598103934665603ULL;
inline constexpr uint64_t kFnvPrime = 1099511628211ULL;

// FNV-1a 64 of `s`, continuing from `h` (the offset basis to start).
inline uint64_t Fnv1a64(std::string_view s, uint64_t h = kFnvOffset) {
  for (unsigned char c : s) h = (h ^ c) * kFnvPrime;
  return h;
}

// `h` mixed with one 64-bit word, as FNV-1a mixes a byte.
inline uint64_t Fnv1aMix(uint64_t h, uint64_t word) { return (h ^ word) * kFnvPrime; }

// The last `digits` hex digits of `v`, lower case, zero-padded (16: all).
inline std::string Hex(uint64_t v, int digits = 16) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(static_cast<size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kHex[v & 0xf];
  return out;
}

}  // namespace lore::text
