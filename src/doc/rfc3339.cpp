#include "doc/rfc3339.h"

namespace lore::doc {
namespace {

// Reads `n` digits at `s[*pos]`; false when they are not all digits.
bool Digits(std::string_view s, size_t* pos, size_t n, int* out) {
  if (*pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

bool IsRfc3339(std::string_view s) {
  size_t p = 0;
  int year, month, day, hour, minute, second;
  if (!Digits(s, &p, 4, &year) || !Expect(s, &p, '-') || !Digits(s, &p, 2, &month) ||
      !Expect(s, &p, '-') || !Digits(s, &p, 2, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
  if (p >= s.size() || (s[p] != 'T' && s[p] != 't' && s[p] != ' ')) return false;
  ++p;
  if (!Digits(s, &p, 2, &hour) || !Expect(s, &p, ':') || !Digits(s, &p, 2, &minute) ||
      !Expect(s, &p, ':') || !Digits(s, &p, 2, &second)) {
    return false;
  }
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (p < s.size() && s[p] == '.') {
    size_t start = ++p;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') ++p;
    if (p == start) return false;
  }
  if (p < s.size() && (s[p] == 'Z' || s[p] == 'z')) return p + 1 == s.size();
  if (p >= s.size() || (s[p] != '+' && s[p] != '-')) return false;
  ++p;
  int oh, om;
  if (!Digits(s, &p, 2, &oh) || !Expect(s, &p, ':') || !Digits(s, &p, 2, &om)) return false;
  return oh <= 23 && om <= 59 && p == s.size();
}

}  // namespace lore::doc
