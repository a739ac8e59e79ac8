#include "lore/text/time.h"

#include <cstdio>
#include <ctime>

namespace lore::text {
namespace {

std::tm ToTm(TimePoint t) {
  std::time_t secs =
      std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  return tm;
}

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::string UtcSeconds(TimePoint t) {
  std::tm tm = ToTm(t);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string UtcMillis(TimePoint t) {
  std::tm tm = ToTm(t);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  if (ms < 0) ms += 1000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

std::string UtcDate(TimePoint t) {
  std::tm tm = ToTm(t);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return buf;
}

std::optional<TimePoint> ParseIso(std::string_view s) {
  int y, mo, d, h = 0, mi = 0, sec = 0;
  if (!Digits(s, 0, 4, &y) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2, &mo) ||
      s[7] != '-' || !Digits(s, 8, 2, &d)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
  size_t pos = 10;
  long long nanos = 0;
  int offset_min = 0;
  if (pos < s.size()) {
    if (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' ') return std::nullopt;
    ++pos;
    if (!Digits(s, pos, 2, &h) || pos + 2 >= s.size() || s[pos + 2] != ':' ||
        !Digits(s, pos + 3, 2, &mi)) {
      return std::nullopt;
    }
    pos += 5;
    if (pos < s.size() && s[pos] == ':') {
      if (!Digits(s, pos + 1, 2, &sec)) return std::nullopt;
      pos += 3;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        long long scale = 100000000;
        size_t start = pos;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
          nanos += (s[pos] - '0') * scale;
          scale /= 10;
          ++pos;
        }
        if (pos == start) return std::nullopt;
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return std::nullopt;
    if (pos < s.size()) {
      if (s[pos] == 'Z' || s[pos] == 'z') {
        ++pos;
      } else if (s[pos] == '+' || s[pos] == '-') {
        int oh, om;
        int sign = s[pos] == '-' ? -1 : 1;
        if (!Digits(s, pos + 1, 2, &oh)) return std::nullopt;
        size_t mpos = pos + 3;
        if (mpos < s.size() && s[mpos] == ':') ++mpos;
        if (!Digits(s, mpos, 2, &om)) return std::nullopt;
        offset_min = sign * (oh * 60 + om);
        pos = mpos + 2;
      }
    }
    if (pos != s.size()) return std::nullopt;
  }
  using namespace std::chrono;
  year_month_day ymd{year(y), month(static_cast<unsigned>(mo)), day(static_cast<unsigned>(d))};
  if (!ymd.ok()) return std::nullopt;
  // In seconds first: a TimePoint counts nanoseconds and holds only the years
  // 1678 to 2262, so a time outside them is not one lore can represent (nullopt,
  // like any other time that does not parse).
  const sys_seconds secs =
      sys_days(ymd) + hours(h) + minutes(mi) + seconds(sec) - minutes(offset_min);
  constexpr sys_seconds kFirst = time_point_cast<seconds>(TimePoint::min());
  constexpr sys_seconds kLast = time_point_cast<seconds>(TimePoint::max());
  if (secs <= kFirst || secs >= kLast) return std::nullopt;
  return time_point_cast<system_clock::duration>(secs) +
         duration_cast<system_clock::duration>(nanoseconds(nanos));
}

}  // namespace lore::text
