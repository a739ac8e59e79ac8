// learnings.jsonl read line by line, the exact bytes of every line kept, so
// that a rewrite (confirm, contradict, prune) changes only the lines it means
// to and keeps foreign, malformed and blank lines byte for byte.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/learnings/lifecycle.h"
#include "lore/proposals/queue.h"

namespace lore::learnings {

using proposals::Span;

struct Line {
  Span span;            // its bytes in FileScan::bytes, '\n' included when present
  bool object = false;  // a JSON object (else blank or malformed)
  bool blank = false;
  Facts facts;                            // when `object`
  std::vector<std::string> confirmed_by;  // proposal ids that confirmed it
};

struct FileScan {
  std::string bytes;
  std::vector<Line> lines;  // every line, in file order
  int64_t malformed = 0;    // non-blank lines that are not JSON objects
  std::string_view Text(const Span& s) const {
    return std::string_view(bytes).substr(s.offset, s.length);
  }
};

// Splits and reads `bytes` (lines through the bounded reader, JSON.parse's
// rules as for the queue).
FileScan ScanLearnings(std::string bytes);

// Reads the file at `path`; a missing file is empty. Refuses a symlink.
Result<FileScan> ReadLearnings(const std::string& path);

// The line of `scan` as a JSON value (nullopt when it is not an object).
std::optional<Json> ParseLine(const FileScan& scan, const Line& line);

// Every proposal id the file settles: learning ids and the ids in
// confirmed_by. A missing file settles none.
Result<std::set<std::string>> SettledIds(const std::string& path);

}  // namespace lore::learnings
