// The words for a consolidation's outcome, shared by `lore` and `lore-llm`
// (which print them; this library does not).
#pragma once

#include <string>
#include <vector>

#include "lore/consolidate/runner.h"

namespace lore::consolidate {

// Exit code of `consolidate` when another consolidation holds the lock.
inline constexpr int kExitBusy = 3;

struct ReportText {
  std::vector<std::string> lines;  // for standard output
  int exit_code = 0;               // 0 ran or nothing to do, 1 a run failed, kExitBusy
};

ReportText DescribeReport(const ConsolidateReport& report, const Settings& settings);

// "3 entries, 1234 bytes (thresholds: 20 entries or 65536 bytes)".
std::string DescribeTotals(const StagingTotals& totals, const Settings& settings);

}  // namespace lore::consolidate
