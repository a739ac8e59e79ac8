// A log's torn tail, and moving it out of the way (docs/formats.md,
// "Quarantine").
//
// An append killed inside its write(2) (SIGKILL stops a large write between
// pages) leaves the start of a line without its end: bytes after the log's
// last '\n' that are not a whole JSON object. Appending after them would glue
// the next record to them, so every appender refuses such a log, and
// `lore check --repair` moves the torn bytes into the store's quarantine/
// folder and cuts the log back to its last complete line: no byte is lost.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lore/error.h"

namespace lore::log {

// Where a log's complete part ends, for the open log `fd` (named `path`):
// nullopt when nothing is torn.
using CutRule = std::function<Result<std::optional<uint64_t>>(int fd, const std::string& path)>;

// The rule of every JSON Lines log: the offset after the last '\n' when the
// bytes after it are neither blank nor a whole JSON object (a line too long
// to hold, over kMaxLineBytes, counts as torn).
Result<std::optional<uint64_t>> TornTailStart(int fd, const std::string& path);

// The error every reader and appender gives for the torn last line `line` of
// `path`: what it is, and `lore check --repair` as the repair.
Error TornTailError(const std::string& path, int64_t line);

// Under an exclusive lock on `path`, finds where its complete part ends with
// `rule` and moves the rest to the file `aside(offset)` returns
// (fs::MoveTailAside); when that name holds other bytes (the log was torn
// at the same offset before), the first of <name>.2, <name>.3, … that is
// free or holds exactly these bytes. Returns the copy's path, or nullopt when
// nothing was torn (and then nothing is written).
Result<std::optional<std::string>> QuarantineTornTail(
    const std::string& path, const CutRule& rule,
    const std::function<Result<std::string>(uint64_t offset)>& aside);

// The same for a log its caller holds open for reading and writing (`fd`,
// named `path`) under its exclusive lock (an appender mending the log before
// it appends): every torn line lore meets is moved aside this way, never cut.
Result<std::optional<std::string>> QuarantineTornTailOf(
    int fd, const std::string& path, const CutRule& rule,
    const std::function<Result<std::string>(uint64_t offset)>& aside);

}  // namespace lore::log
