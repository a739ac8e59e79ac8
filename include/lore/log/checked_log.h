// An append-only JSON Lines log whose validity is checked at a cost that does
// not grow with its length.
//
// Every line of the log must be a JSON object. Checking all of it on every
// call would cost time in proportion to its size, so lore remembers the
// identity of the log as it last saw it valid (device, inode, size, mtime,
// line count; see log_identity.h for where). While the log still matches that
// identity nothing is re-read; when it does not (another program wrote to it,
// or it was edited) the whole log is checked again, streamed in chunks with
// flat memory (stream_scan.h), and the first bad line is reported with its
// number.
//
// Appends take an exclusive flock on the log, write the whole line in one
// write(2) to a descriptor opened with O_APPEND, then fdatasync, so that
// concurrent appenders never interleave or tear lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

namespace lore::log {

struct LogPaths {
  std::string log;        // the JSON Lines file
  std::string cache_dir;  // where to remember what was validated when the log
                          // cannot carry an attribute; empty: nowhere
  // Repair advice for a bad line, e.g. how to fix it without losing data.
  std::string bad_line_repair;
  // A side file of earlier versions (`.lore-raw.check` in the store): removed
  // on the next full check. Empty: none.
  std::string legacy_check;
  bool use_attribute = true;  // false: only the cache file (tests)
};

struct AppendResult {
  int64_t line = 0;          // the 1-based line number written
  bool revalidated = false;  // true when the whole log had to be re-read
};

// Checks the log (under a shared lock), reading it only when it changed since
// lore last validated it. The log must exist.
Status Validate(const LogPaths& paths);

// Validates as above, then appends `line` (which must not contain '\n') as one
// line. When the log lacks a final newline (a line from another program), the
// write starts with one so that lines never join.
Result<AppendResult> Append(const LogPaths& paths, std::string_view line);

// Appends several lines in the one write(2) of Append: all of them land, in
// order and together, or none does. `line` of the result is the last one's.
Result<AppendResult> AppendLines(const LogPaths& paths, const std::vector<std::string>& lines);

// Reads and checks every line, returning one Error per bad line (at most
// `max_problems`); an I/O failure is a single Error.
std::vector<Error> CheckAll(const LogPaths& paths, size_t max_problems = 1000);

}  // namespace lore::log
