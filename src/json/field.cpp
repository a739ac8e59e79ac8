#include "lore/json/field.h"
#include "lore/json/value.h"

#include <cmath>

namespace lore::json {
namespace {

template <class J>
std::optional<int64_t> AsIntImpl(const J& v, int64_t lo, int64_t hi) {
  int64_t r = 0;
  if (v.is_number_integer() && !v.is_number_unsigned()) {
    r = v.template get<int64_t>();
  } else if (v.is_number_unsigned()) {
    uint64_t u = v.template get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    r = static_cast<int64_t>(u);
  } else if (v.is_number_float()) {
    double d = v.template get<double>();
    // 2^63 is exact in a double; anything at or beyond it does not fit.
    if (!std::isfinite(d) || d != std::trunc(d) || d < -9223372036854775808.0 ||
        d >= 9223372036854775808.0) {
      return std::nullopt;
    }
    r = static_cast<int64_t>(d);
  } else {
    return std::nullopt;
  }
  if (r < lo || r > hi) return std::nullopt;
  return r;
}

}  // namespace

std::optional<int64_t> AsInt(const SortedJson& v, int64_t lo, int64_t hi) {
  return AsIntImpl(v, lo, hi);
}
std::optional<int64_t> AsInt(const Json& v, int64_t lo, int64_t hi) { return AsIntImpl(v, lo, hi); }

int64_t ClampToInt(double d, int64_t lo, int64_t hi) {
  if (std::isnan(d)) return lo;
  if (d <= static_cast<double>(lo)) return lo;
  if (d >= static_cast<double>(hi)) return hi;
  int64_t r = static_cast<int64_t>(d);  // |d| < 2^63 here: defined
  return r < lo ? lo : r > hi ? hi : r;
}

}  // namespace lore::json
