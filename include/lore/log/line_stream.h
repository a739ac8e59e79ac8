// Reading a file's complete lines from a byte offset, in bounded memory: the
// one line reader of lore's logs (log::ScanFd) and of agent transcripts
// (extract::Extract).
//
// The file is read `chunk_bytes` at a time with pread. A line is handed to
// the visitor whole when it ends with '\n' and is at most `max_line_bytes`
// long; a longer line is reported as oversized (its number and length, not
// its text) and its bytes are skipped without being held, so peak memory is
// one chunk plus one held line however long the file or its lines are. The
// bytes after the last '\n' (a line the agent is still writing) are not
// visited: the result says where the complete lines end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::log {

// How much of a file is read at once.
inline constexpr size_t kScanChunkBytes = size_t{1} << 20;  // 1 MiB
// The longest line of a log lore holds (without its '\n'); a longer one is a
// problem of its own ("line longer than 16 MiB"). Peak memory of a scan is at
// most this plus one chunk.
inline constexpr size_t kMaxLineBytes = size_t{16} << 20;  // 16 MiB

struct StreamLimits {
  size_t chunk_bytes = kScanChunkBytes;
  size_t max_line_bytes = kMaxLineBytes;
};

struct StreamedLine {
  int64_t number = 0;     // 1-based line number in the file
  uint64_t end = 0;       // byte offset just past its '\n'
  std::string_view text;  // without the '\n'; empty when oversized
  bool oversized = false;
  uint64_t length = 0;  // bytes without the '\n'
};

struct StreamEnd {
  int64_t last_line = 0;  // number of the last complete line visited (first_line - 1 if none)
  uint64_t end = 0;       // offset past it (the start offset if none)
};

// Visits the complete lines of `fd` from byte `offset` (the start of line
// `first_line`) up to `size`. The visitor returns false to stop early.
Result<StreamEnd> StreamLines(int fd, uint64_t offset, int64_t first_line, uint64_t size,
                              const std::string& path,
                              const std::function<bool(const StreamedLine&)>& visit,
                              const StreamLimits& limits = {});

}  // namespace lore::log
