// Collecting the queue for people and reviews: records in FIFO order of
// created_at, malformed lines counted, the per-wave counters summed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/proposals/queue.h"

namespace lore::proposals {

struct Stats {
  int64_t queued = 0;
  int64_t dropped = 0;
  int64_t below_floor = 0;
  int64_t fs_error = 0;
  int64_t parse_errors = 0;  // non-blank lines minus records
};

struct Collected {
  QueueScan scan;
  std::vector<size_t> order;  // indexes into scan.records: FIFO, filtered
  Stats stats;
  std::map<std::string, Json> summaries;  // wave -> its summary object
  std::vector<std::string> unreadable;    // summary files that did not parse
};

// Indexes of `scan.records` ordered by created_at (a stable sort on the
// string, as the original does; a record without one sorts first).
std::vector<size_t> FifoOrder(const QueueScan& scan);

// Reads the queue and the summaries. With `min_confidence`, keeps records
// whose confidence is at or above it and those without a numeric one.
Result<Collected> Collect(const Paths& paths, std::optional<double> min_confidence);

// {"queue":[records…],"stats":{queued,dropped,below_floor,fs_error,parse_errors},
//  "perWaveSummaries":{wave:{…}}}
Json ToJson(const Collected& c);

// What `lore proposals` prints for a person: the counters, then each record
// numbered with its Label, Description, id, wave and time, every field as
// FieldText shows it (present.h: nothing of a terminal's codes).
std::string ToText(const Collected& c);

}  // namespace lore::proposals
