// Per-wave counters: proposals-summary-<wave>.json holds
// {queued, dropped, below_floor, fs_error}, pretty-printed with two spaces
// as the original tool writes it. Every outcome of `lore propose` bumps one
// counter, under an flock of .proposals-summary.lock.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "lore/error.h"
#include "lore/json/value.h"
#include "lore/proposals/paths.h"

namespace lore::proposals {

struct Counters {
  int64_t queued = 0;
  int64_t dropped = 0;
  int64_t below_floor = 0;
  int64_t fs_error = 0;
};

enum class Counter { kQueued, kDropped, kBelowFloor, kFsError };

// The file's text for `c`.
std::string RenderSummary(const Counters& c);
// Counters from a summary's text; missing or non-numeric fields count 0.
// nullopt when the text is not a JSON object.
std::optional<Counters> ParseSummary(std::string_view text);

// Adds one to `counter` of `wave` and returns the new counters. A summary
// that does not parse is kept aside as <name>.corrupt and counting restarts.
// The file is replaced atomically (fs::WriteFileAtomic) but not fsynced
// (Durability::kVisibleOnly: the counters are
// diagnostics; the queue line is the truth).
Result<Counters> Bump(const Paths& paths, std::string_view wave, Counter counter);

// Every proposals-summary-*.json of the store: wave -> parsed JSON. Files
// that do not parse are skipped and named in `*unreadable`.
std::map<std::string, Json> ReadSummaries(const Paths& paths, std::vector<std::string>* unreadable);

// Removes every summary whose wave is not in `keep`; returns how many.
int64_t RemoveSummaries(const Paths& paths, const std::set<std::string>& keep);

}  // namespace lore::proposals
