// Verbatim excerpts: the transcript's own words, white space runs squeezed to
// one space, cut on a UTF-8 boundary. Never a word that is not in the source.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lore::extract {

// `text` with runs of white space squeezed and trimmed, at most `max_bytes`
// (cut at the last whole code point; at a space when one is near the end).
std::string Excerpt(std::string_view text, size_t max_bytes);

// The first line of `text` that holds more than white space, as an excerpt.
std::string FirstLine(std::string_view text, size_t max_bytes);

// The first sentence of `text` (up to ". ", "? ", "! " or a newline).
std::string FirstSentence(std::string_view text, size_t max_bytes);

// The first sentence of at least three words among the first four (so that
// "Thanks." or "Ok." does not stand for a request); else the first one.
std::string MainSentence(std::string_view text, size_t max_bytes);

// The first line of a failed command's output that says what went wrong:
// one naming an error, failure or missing thing; else the first non-blank
// line that is not the harness's "Exit code N".
std::string FirstErrorLine(std::string_view output, size_t max_bytes);

// The first file path or file name mentioned in `text` (a token holding a '/'
// or a name with an extension), verbatim; empty when none.
std::string FirstPath(std::string_view text);

}  // namespace lore::extract
