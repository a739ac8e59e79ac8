// Verbatim excerpts: the transcript's own words, white space runs squeezed to
// one space, cut on a UTF-8 boundary. Never a word that is not in the source.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lore::activity {

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

// The line of a failed command's output that says what went wrong: the first
// giving an error with its message ("TypeError: …", "error[E0425]: …") or a
// compiler's place ("a.go:20:26: …"); else the first naming an error, then
// the first naming a failure or missing thing, then the first with a word.
// Banners around a heading ("=== FAILURES ==="), steps that went well ("✓ …",
// "… ok"), warnings and the harness's "Exit code N" are never it; a banner
// around a count is said without its decoration, and a line ending in ':'
// with the line after it.
std::string FirstErrorLine(std::string_view output, size_t max_bytes);

// The last component of a path as a transcript writes it ('/' or '\\'
// between folders: a session may run on Windows).
std::string_view FileNameOf(std::string_view path);

// The first file path or file name mentioned in `text` (a token holding a '/'
// or a name with an extension), verbatim; empty when none.
std::string FirstPath(std::string_view text);

// `text` as it is (lines kept) when it fits `max_bytes`, else its first bytes
// cut at a code point, at a line end or space near the end when there is one,
// followed by "…".
std::string Cut(std::string_view text, size_t max_bytes);

// The telling lines of a failed command's output, at most `max_bytes`: from
// the first line naming an error, failure or missing thing (past banners
// around a heading and steps that went well), up to five non-blank lines; two
// of them, "…" and three from the error given with its message when five
// would not reach it; else its first non-blank lines. The harness's "Exit
// code N" is left out.
std::string FailureLines(std::string_view output, size_t max_bytes);

// A command's output shortened to its first and last three non-blank lines
// ("…" between them), at most `max_bytes`.
std::string HeadTail(std::string_view output, size_t max_bytes);

// The prose of an agent's Markdown message on one line, at most `max_bytes`:
// headings kept as words, table rows, rules, code fences and decorations
// ("★ Insight ───") dropped, "**", "__" and backquotes removed, list items
// joined with "; ".
std::string Gist(std::string_view text, size_t max_bytes);

// True when `line` names an error, a failure or a missing thing.
bool NamesAnError(std::string_view line);

// True for a sentence that only says what comes next ("Now let me audit TCC
// permissions:", "Let me check the logs.", "I'll run the tests").
bool Announces(std::string_view sentence);

}  // namespace lore::activity
