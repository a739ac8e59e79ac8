#include "json/strings.h"

#include <cstring>

namespace lore::json::internal {

size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  auto cont = [&](size_t k) { return k < s.size() && (at(k) & 0xC0) == 0x80; };
  unsigned char c = at(i);
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    unsigned char c1 = at(i + 1);
    if (c == 0xE0 && c1 < 0xA0) return 0;   // overlong
    if (c == 0xED && c1 >= 0xA0) return 0;  // a surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    unsigned char c1 = at(i + 1);
    if (c == 0xF0 && c1 < 0x90) return 0;   // overlong
    if (c == 0xF4 && c1 >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

bool ReadHex4(std::string_view s, size_t i, uint32_t* unit) {
  if (i + 4 > s.size()) return false;
  uint32_t v = 0;
  for (size_t k = i; k < i + 4; ++k) {
    char c = s[k];
    v <<= 4;
    if (c >= '0' && c <= '9') {
      v |= static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= static_cast<uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
  }
  *unit = v;
  return true;
}

void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {

constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighs = 0x8080808080808080ULL;

// Whether some byte of `w` is below n (n <= 128), or equals b: exact answers
// to "is there such a byte", which is all SkipPlainAscii asks.
constexpr uint64_t HasLess(uint64_t w, uint64_t n) { return (w - kOnes * n) & ~w & kHighs; }
constexpr uint64_t HasByte(uint64_t w, uint64_t b) { return HasLess(w ^ (kOnes * b), 1); }

}  // namespace

size_t SkipPlainAscii(std::string_view s, size_t i) {
  while (i + 8 <= s.size()) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if ((w & kHighs) | HasLess(w, 0x20) | HasByte(w, '"') | HasByte(w, '\\')) break;
    i += 8;
  }
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80 || c < 0x20 || c == '"' || c == '\\') return i;
    ++i;
  }
  return i;
}

std::string DecodeString(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size();) {
    const void* slash = std::memchr(raw.data() + i, '\\', raw.size() - i);
    const size_t end =
        slash ? static_cast<size_t>(static_cast<const char*>(slash) - raw.data()) : raw.size();
    out.append(raw.data() + i, end - i);  // the run before the next escape
    i = end;
    if (i + 1 >= raw.size()) {
      if (i < raw.size()) out.push_back(raw[i]);  // a lone trailing backslash
      break;
    }
    char e = raw[i + 1];
    i += 2;
    switch (e) {
      case 'b':
        out.push_back('\b');
        continue;
      case 'f':
        out.push_back('\f');
        continue;
      case 'n':
        out.push_back('\n');
        continue;
      case 'r':
        out.push_back('\r');
        continue;
      case 't':
        out.push_back('\t');
        continue;
      case 'u':
        break;
      default:
        out.push_back(e);
        continue;  // " \ /
    }
    uint32_t unit = 0;
    if (!ReadHex4(raw, i, &unit)) {
      out.append("\xEF\xBF\xBD");
      continue;
    }
    i += 4;
    uint32_t low = 0;
    if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < raw.size() && raw[i] == '\\' &&
        raw[i + 1] == 'u' && ReadHex4(raw, i + 2, &low) && low >= 0xDC00 && low <= 0xDFFF) {
      i += 6;
      AppendUtf8(&out, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
    } else if (unit >= 0xD800 && unit <= 0xDFFF) {
      out.append("\xEF\xBF\xBD");  // unpaired: U+FFFD, as lore cannot hold it in UTF-8
    } else {
      AppendUtf8(&out, unit);
    }
  }
  return out;
}

}  // namespace lore::json::internal
