#include "consolidate/report.h"

namespace lore::consolidate {
namespace {

std::string Count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string DescribeTotals(const StagingTotals& t, const Settings& s) {
  return Count(static_cast<size_t>(t.files), "entry", "entries") + ", " +
         Count(static_cast<size_t>(t.bytes), "byte", "bytes") +
         " (thresholds: " + Count(static_cast<size_t>(s.threshold_files), "entry", "entries") +
         " or " + Count(static_cast<size_t>(s.threshold_bytes), "byte", "bytes") + ")";
}

ReportText DescribeReport(const ConsolidateReport& r, const Settings& s) {
  ReportText out;
  if (r.busy && r.runs.empty()) {
    std::string line = "consolidation already running";
    if (r.holder) {
      line += ": pid " + std::to_string(r.holder->pid) + " on " + r.holder->pod_name +
              ", started " + r.holder->started_at + ", consuming " +
              Count(r.holder->consumed_ids.size(), "entry", "entries");
    }
    if (r.flush_left) line += "; it will flush the staging folder before it ends";
    out.lines.push_back(line);
    out.exit_code = kExitBusy;
    return out;
  }
  for (const auto& run : r.runs) {
    if (run.outcome == "ok") {
      out.lines.push_back("run " + run.run_id + " (" + run.engine + "): consumed " +
                          Count(run.consumed_ids.size(), "entry", "entries") + ", changed " +
                          Count(run.changed.size(), "file", "files"));
      for (const auto& c : run.changed) out.lines.push_back("  " + c);
    } else {
      out.lines.push_back("run " + run.run_id + " (" + run.engine + ") failed, nothing changed, " +
                          Count(run.consumed_ids.size(), "entry", "entries") +
                          " kept: " + run.error);
      out.exit_code = 1;
    }
  }
  if (r.runs.empty()) {
    out.lines.push_back(r.left.files == 0
                            ? "nothing staged"
                            : "nothing to consolidate yet: " + DescribeTotals(r.left, s) +
                                  "; --flush consolidates anyway");
  } else if (r.left.files > 0) {
    out.lines.push_back("still staged: " + DescribeTotals(r.left, s));
  }
  return out;
}

}  // namespace lore::consolidate
