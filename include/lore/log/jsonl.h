// Reading JSON Lines: one JSON value per line, UTF-8, '\n' separated.
//
// A reader splits a buffer into lines, skips blank ones, and classifies each
// other line as a JSON object or as a problem (invalid UTF-8, not JSON, JSON
// but not an object, or a last line cut off without its newline).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lore::log {

struct Line {
  int64_t number = 0;       // 1-based
  std::string_view text;    // without the '\n'
  bool has_newline = true;  // false for a last line without '\n'
};

// Iterates the lines of `data` in order.
class LineScanner {
 public:
  explicit LineScanner(std::string_view data, int64_t first_line = 1)
      : data_(data), next_number_(first_line) {}
  // Fills `*line` with the next line; false at the end.
  bool Next(Line* line);

 private:
  std::string_view data_;
  size_t pos_ = 0;
  int64_t next_number_;
};

// True when a line holds only spaces, tabs or a '\r'.
bool IsBlank(std::string_view line);

// The problem with one non-blank line, or nullopt when it is a JSON object.
// The text says what is wrong ("invalid UTF-8", "not valid JSON (...)",
// "a JSON value that is not an object", "cut off without a newline").
// Lines are read with json::ForeignLogLine(): what Python's json module reads
// (NaN, Infinity, 1e400, lone surrogate escapes, repeated keys) is accepted,
// so a log written by reviewer-memory is never refused for it.
std::optional<std::string> CheckObjectLine(const Line& line);

struct LineProblem {
  int64_t line = 0;
  std::string what;
};

struct ScanResult {
  int64_t lines = 0;              // lines seen (blank ones included)
  int64_t objects = 0;            // lines that are JSON objects
  bool ends_with_newline = true;  // true for empty data as well
  std::vector<LineProblem> problems;
};

// Checks every line of `data`; stops collecting after `max_problems`.
ScanResult ScanObjects(std::string_view data, size_t max_problems = SIZE_MAX);

}  // namespace lore::log
