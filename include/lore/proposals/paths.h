// Where the proposal files live inside a store (docs/formats.md).
#pragma once

#include <string>
#include <string_view>

namespace lore::proposals {

struct Paths {
  std::string dir;           // the store directory
  std::string queue;         // proposals.jsonl
  std::string lock;          // proposals-write.lock (the write lock)
  std::string archive;       // proposals-archive.jsonl
  std::string rejected;      // proposals.rejected.jsonl
  std::string learnings;     // learnings.jsonl
  std::string events;        // events.jsonl
  std::string config;        // config.toml
  std::string summary_lock;  // .proposals-summary.lock (flock for the counters)

  static Paths InStore(const std::string& store_dir);
  // proposals-summary-<wave>.json; `wave` must satisfy IsWaveId.
  std::string Summary(std::string_view wave) const;
};

inline constexpr std::string_view kSummaryPrefix = "proposals-summary-";
inline constexpr std::string_view kSummarySuffix = ".json";

}  // namespace lore::proposals
