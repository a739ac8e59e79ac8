// The one way lore reads fields of a parsed JSON value.
//
// nlohmann's get<T>() throws on a type mismatch and a float-to-integer cast
// of an untrusted number is undefined behaviour when it is out of range;
// these accessors do neither: a missing member, a member of another type or a
// number that does not fit gives nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include "lore/json/value.h"

namespace lore::json {

// The member `key` of `v`, or nullptr when `v` is not an object or lacks it.
template <class J>
const J* Find(const J& v, std::string_view key) {
  if (!v.is_object()) return nullptr;
  auto it = v.find(key);
  return it == v.end() ? nullptr : &*it;
}

// `v` as an integer when it is a number with an integral value within
// [lo, hi]: 3 and 3.0 are 3; 3.5, 1e300, NaN and "3" are nullopt.
std::optional<int64_t> AsInt(const SortedJson& v, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX);
std::optional<int64_t> AsInt(const Json& v, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX);

// A finite double converted to an integer, clamped to [lo, hi]; NaN gives lo.
// For counters and limits computed from untrusted numbers.
int64_t ClampToInt(double d, int64_t lo, int64_t hi);

template <class J>
std::optional<std::string> String(const J& v, std::string_view key) {
  const J* m = Find(v, key);
  if (!m || !m->is_string()) return std::nullopt;
  return m->template get<std::string>();
}

// The string member `key`, or `fallback` when missing or not a string.
template <class J>
std::string StringOr(const J& v, std::string_view key, std::string_view fallback) {
  auto s = String(v, key);
  return s ? *s : std::string(fallback);
}

template <class J>
std::optional<bool> Bool(const J& v, std::string_view key) {
  const J* m = Find(v, key);
  if (!m || !m->is_boolean()) return std::nullopt;
  return m->template get<bool>();
}

// A number member (integer or floating) as a double.
template <class J>
std::optional<double> Number(const J& v, std::string_view key) {
  const J* m = Find(v, key);
  if (!m || !m->is_number()) return std::nullopt;
  return m->template get<double>();
}

template <class J>
std::optional<int64_t> Int(const J& v, std::string_view key, int64_t lo = INT64_MIN,
                           int64_t hi = INT64_MAX) {
  const J* m = Find(v, key);
  if (!m) return std::nullopt;
  return AsInt(*m, lo, hi);
}

}  // namespace lore::json
