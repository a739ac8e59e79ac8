// The queue, proposals.jsonl: reading it line by line with the exact bytes
// of every line, counting a wave's lines, and appending a proposal under the
// write lock with the per-wave quota and the confidence floor.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/settings.h"
#include "lore/proposals/write_lock.h"

namespace lore::proposals {

// One line of the queue. `offset`/`length` locate its exact bytes in the
// scanned buffer, the '\n' included when it has one.
struct Span {
  int64_t line = 0;  // 1-based
  size_t offset = 0;
  size_t length = 0;
};

// A line that is a JSON object.
struct Entry {
  Span span;
  Json record;
  std::string id;  // record["id"] when it is a string, else empty
};

struct QueueScan {
  std::string bytes;            // the whole file as read
  std::vector<Entry> records;   // in file order
  std::vector<Span> malformed;  // non-blank lines that are not JSON objects
  std::vector<Span> blank;      // blank lines
  int64_t parse_errors() const { return static_cast<int64_t>(malformed.size()); }
  std::string_view Text(const Span& s) const {
    return std::string_view(bytes).substr(s.offset, s.length);
  }
};

// Splits and parses `bytes`.
QueueScan ScanQueue(std::string bytes);

// One line of a file in the queue's format (proposals.jsonl, learnings.jsonl).
struct ScannedLine {
  Span span;
  bool blank = false;
  std::optional<Json> object;  // the line when it is a JSON object (QueueLineLimits)
};
// Calls `on_line` on every line of `bytes`, in order: how ScanQueue and
// learnings::ScanLearnings split and read a file.
void ScanLines(std::string_view bytes, const std::function<void(ScannedLine&)>& on_line);

// How a queue line is read: JSON.parse's rules (repeated keys: the last
// wins), at most 1 MiB and 64 levels deep; anything else is malformed.
json::Limits QueueLineLimits();
// Reads and scans the queue at `path`; a missing file is an empty queue.
Result<QueueScan> ReadQueue(const std::string& path);

// How many lines of `data` hold a record of wave `wave` (fast: looks for the
// compact `"wave_id":"<wave>"` form, and the `"wave_id": "<wave>"` form that
// other JSON writers use, in lines that are brace-delimited).
int64_t CountWaveLines(std::string_view data, std::string_view wave);

enum class Outcome { kQueued, kQuotaExceeded, kBelowFloor, kAlreadyQueued };

struct Enqueued {
  Outcome outcome = Outcome::kQueued;
  std::string queued_id;  // kAlreadyQueued: the id of the pending proposal it repeats
  int64_t position = 0;   // the wave's count after queueing (for "3/5")
  int64_t quota = 0;
  int64_t dropped = 0;                  // the wave's dropped counter after this call
  std::optional<fs::Holder> reclaimed;  // a dead holder whose lock file was taken over
};

// What a queued record must say to repeat the one being proposed: `same`
// judges a record. So that a queue of 10,000 lines is not parsed whole, a
// line whose "subject" value (read in place where it holds no escape)
// normalised by `normalise` is not `subject` is passed over unparsed. No
// `same`: nothing is looked for.
struct SameProposal {
  std::string subject;
  std::function<std::string(std::string_view)> normalise;
  std::function<bool(const Json& queued)> same;
};

// Queues the valid `record`: below `settings.confidence_floor` it only
// counts below_floor; otherwise, under the write lock, it looks for a
// pending record `same` holds for (then nothing is written or counted:
// kAlreadyQueued with its id), counts the wave's lines and either drops the
// proposal (at the quota) or appends it. Every other outcome, a failure
// included (fs_error), is counted in the wave's summary.
Result<Enqueued> Enqueue(const Paths& paths, const Json& record, const Settings& settings,
                         std::chrono::milliseconds lock_timeout = kLockTimeout,
                         const SameProposal& same = {});

}  // namespace lore::proposals
