// Trimming white space from both ends of a string view.
#pragma once

#include <string_view>

namespace lore::text {

// `s` without leading and trailing characters from `chars` (default: ASCII white space).
inline std::string_view Trim(std::string_view s, std::string_view chars = " \t\r\n\v\f") {
  size_t b = s.find_first_not_of(chars);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(chars) - b + 1);
}

}  // namespace lore::text
