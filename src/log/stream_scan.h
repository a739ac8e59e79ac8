// Checking a JSON Lines file by streaming it in fixed-size chunks, so that
// memory stays flat however long the file is.
//
// The file is read `chunk_bytes` at a time; a line cut by the end of a chunk
// is carried over to the next one. A line longer than a chunk is still
// checked whole (the carry grows for that line only, and shrinks back after
// it), up to `max_line_bytes`: a longer line is reported as too long and
// skipped without being held in memory. Each line is classified by
// log::CheckObjectLine (jsonl.h), exactly as a scan of the whole file in
// memory (log::ScanObjects) would classify it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "lore/error.h"
#include "lore/log/jsonl.h"
#include "lore/log/line_stream.h"

namespace lore::log {

// The problem text of a line longer than `max_line_bytes`.
std::string TooLongLine(size_t max_line_bytes);

// Checks the first `size` bytes of the open file `fd` (read with pread, so
// the file offset does not matter) line by line. Stops reading once
// `max_problems` problems are collected (the counts are then partial). An
// I/O failure names `path`. Bytes beyond `size` (written meanwhile) are not
// read; a file shorter than `size` ends the scan at its end.
Result<ScanResult> ScanFd(int fd, uint64_t size, const std::string& path,
                          size_t max_problems = SIZE_MAX, const StreamLimits& limits = {});

}  // namespace lore::log
