#include "lore/sys/uuid.h"

#include <cstdint>
#include <mutex>

#include "lore/sys/random.h"

namespace lore::sys {
namespace {

void PutHex(std::string& out, uint64_t value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) out += kHex[(value >> (4 * i)) & 0xf];
}

bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool IsHex(char c) { return IsLowerHex(c) || (c >= 'A' && c <= 'F'); }

bool IsDashAt(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

// 36 characters, dashes where the canonical form has them, digits in
// `digit` elsewhere.
bool Canonical(std::string_view s, bool (*digit)(char)) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (IsDashAt(i) ? s[i] != '-' : !digit(s[i])) return false;
  }
  return true;
}

bool IsVariant(char c) { return c == '8' || c == '9' || c == 'a' || c == 'b'; }

}  // namespace

std::string NewUuidV4() {
  unsigned char b[16];
  RandomBytes(b, sizeof b);
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 9562 variant
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    PutHex(out, b[i], 2);
  }
  return out;
}

bool IsUuidV4(std::string_view id) {
  if (!Canonical(id, IsHex)) return false;
  const char variant =
      id[19] >= 'A' && id[19] <= 'F' ? static_cast<char>(id[19] - 'A' + 'a') : id[19];
  return id[14] == '4' && IsVariant(variant);
}

std::string NewUuidV7(std::chrono::system_clock::time_point now) {
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
        counter = Random64() & 0x3ff;
      }
    } else {
      counter = Random64() & 0x3ff;  // leave room to count up
    }
    last_ms = ms;
    seq = counter;
  }
  const uint64_t rand_b = Random64() & 0x3fffffffffffffffULL;
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
  return Canonical(s, IsLowerHex) && s[14] == '7' && IsVariant(s[19]);
}

std::optional<std::chrono::system_clock::time_point> UuidV7Time(std::string_view s) {
  if (!IsUuidV7(s)) return std::nullopt;
  uint64_t ms = 0;
  for (size_t i = 0; i < 13; ++i) {
    if (i == 8) continue;
    const char c = s[i];
    ms = (ms << 4) | static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
}

}  // namespace lore::sys
