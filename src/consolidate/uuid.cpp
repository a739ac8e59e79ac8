#include "lore/consolidate/uuid.h"

#include <sys/random.h>

#include <cstdint>
#include <mutex>

namespace lore::consolidate {
namespace {

uint64_t RandomBits() {
  uint64_t v = 0;
  size_t got = 0;
  auto* p = reinterpret_cast<unsigned char*>(&v);
  while (got < sizeof v) {
    ssize_t n = ::getrandom(p + got, sizeof v - got, 0);
    if (n > 0) got += static_cast<size_t>(n);
  }
  return v;
}

void PutHex(std::string& out, uint64_t value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) out += kHex[(value >> (4 * i)) & 0xf];
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

}  // namespace

std::string NewUuidV7(text::TimePoint now) {
  static std::mutex mu;
  static uint64_t last_ms = 0;
  static uint64_t counter = 0;
  auto ms = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
  uint64_t seq;
  {
    std::lock_guard<std::mutex> g(mu);
    if (ms <= last_ms) {
      ms = last_ms;  // never go back in time within the process
      if (++counter > 0xfff) {
        ++ms;
        counter = RandomBits() & 0x3ff;
      }
    } else {
      counter = RandomBits() & 0x3ff;  // leave room to count up
    }
    last_ms = ms;
    seq = counter;
  }
  uint64_t rand_b = RandomBits() & 0x3fffffffffffffffULL;
  std::string out;
  out.reserve(36);
  PutHex(out, ms >> 16, 8);
  out += '-';
  PutHex(out, ms & 0xffff, 4);
  out += '-';
  PutHex(out, 0x7000 | seq, 4);
  out += '-';
  PutHex(out, 0x8000 | (rand_b >> 48), 4);
  out += '-';
  PutHex(out, rand_b & 0xffffffffffffULL, 12);
  return out;
}

bool IsUuidV7(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !IsHex(s[i])) return false;
  }
  return s[14] == '7' && (s[19] == '8' || s[19] == '9' || s[19] == 'a' || s[19] == 'b');
}

std::optional<text::TimePoint> UuidV7Time(std::string_view s) {
  if (!IsUuidV7(s)) return std::nullopt;
  uint64_t ms = 0;
  for (size_t i = 0; i < 13; ++i) {
    if (i == 8) continue;
    char c = s[i];
    ms = (ms << 4) | static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  return text::TimePoint(std::chrono::milliseconds(ms));
}

}  // namespace lore::consolidate
