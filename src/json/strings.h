// String pieces of the JSON scanner: UTF-8 sequences, \u escapes, decoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lore::json::internal {

// The length (2-4) of the valid UTF-8 sequence starting at s[i] (a non-ASCII
// lead byte), or 0 when it is not valid UTF-8 (overlong forms, surrogates and
// code points above U+10FFFF are not).
size_t Utf8SequenceLength(std::string_view s, size_t i);

// Reads four hex digits at s[i..i+4) into `*unit`.
bool ReadHex4(std::string_view s, size_t i, uint32_t* unit);

// Appends code point `cp` as UTF-8.
void AppendUtf8(std::string* out, uint32_t cp);

// The text of the string token `raw` (the bytes between the quotes, already
// scanned): escapes decoded, an unpaired surrogate escape as U+FFFD.
std::string DecodeString(std::string_view raw);

// The first index at or after `i` whose byte may end a run of plain string
// bytes: a quote, a backslash, a control character or a non-ASCII byte (or
// s.size()). Eight bytes at a time: transcripts carry strings of megabytes.
size_t SkipPlainAscii(std::string_view s, size_t i);

}  // namespace lore::json::internal
