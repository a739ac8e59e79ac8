// Strict UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lore::text {

// True when `s` is valid UTF-8. On failure, `*bad_offset` (if given) receives
// the byte offset of the first invalid sequence.
bool IsValidUtf8(std::string_view s, size_t* bad_offset = nullptr);

// Number of code points in valid UTF-8 `s`.
size_t CodePointCount(std::string_view s);

// The longest prefix of valid UTF-8 `s` holding at most `max_code_points`.
std::string_view PrefixCodePoints(std::string_view s, size_t max_code_points);

// The longest prefix of `s` of at most `max_bytes` that does not end inside a
// UTF-8 sequence.
std::string_view PrefixBytes(std::string_view s, size_t max_bytes);

// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string ReplaceInvalidUtf8(std::string_view s);

}  // namespace lore::text
