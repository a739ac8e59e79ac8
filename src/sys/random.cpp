#include "lore/sys/random.h"

#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace lore::sys {
namespace {

// SplitMix64 (Steele, Lea and Flood): one step of a good 64-bit mixer.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The fallback: distinct per call (the counter), per process (the pid) and
// per boot (the clock).
void FallbackBytes(unsigned char* out, size_t n) {
  static std::atomic<uint64_t> counter{0};
  const auto clock =
      static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  uint64_t state = clock ^ (static_cast<uint64_t>(::getpid()) << 32) ^ Mix(++counter);
  while (n > 0) {
    state = Mix(state);
    const size_t take = n < sizeof state ? n : sizeof state;
    std::memcpy(out, &state, take);
    out += take;
    n -= take;
  }
}

}  // namespace

void RandomBytes(void* out, size_t n) {
  auto* p = static_cast<unsigned char*>(out);
  while (n > 0) {
    const ssize_t got = ::getrandom(p, n, GRND_NONBLOCK);
    if (got > 0) {
      p += got;
      n -= static_cast<size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      FallbackBytes(p, n);  // EAGAIN (no entropy yet) or ENOSYS
      return;
    }
  }
}

uint32_t Random32() {
  uint32_t v = 0;
  RandomBytes(&v, sizeof v);
  return v;
}

uint64_t Random64() {
  uint64_t v = 0;
  RandomBytes(&v, sizeof v);
  return v;
}

}  // namespace lore::sys
