#include "lore/app/consolidate.h"

#include "consolidate/journal.h"
#include "consolidate/report.h"
#include "lore/app/recall.h"
#include "lore/consolidate/rules_engine.h"
#include "lore/consolidate/run_lock.h"
#include "lore/consolidate/run_state.h"
#include "lore/consolidate/staging.h"
#include "lore/distill/distill.h"

namespace lore::app {

namespace cons = consolidate;

Result<std::string> Stage(const store::Store& store, std::string_view input, text::TimePoint now) {
  return cons::Stage(store, input, now);
}

Result<bool> ConsolidationDue(const store::Store& store) {
  LORE_ASSIGN(cons::Settings settings, cons::LoadSettings(store));
  LORE_ASSIGN(std::vector<cons::StagedFile> staged, cons::ListStaged(store));
  if (!cons::AtThreshold(cons::Totals(staged), settings)) return false;
  auto lock = cons::InspectRunLock(store);
  if (lock && *lock && (*lock)->alive) return false;  // the running one coalesces
  return true;
}

Result<Consolidation> Consolidate(const OpenedStore& s, cons::Engine& engine, bool flush) {
  LORE_ASSIGN(cons::ConsolidateReport report,
              cons::Consolidate(s.store, s.settings, engine, {flush}));
  Consolidation c;
  c.warnings = report.warnings;
  cons::ReportText text = cons::DescribeReport(report, s.settings);
  c.lines = std::move(text.lines);
  c.exit_code = text.exit_code;
  c.report = std::move(report);
  return c;
}

Result<Consolidation> ConsolidateWithRules(const OpenedStore& s, bool flush) {
  cons::RulesEngine rules;
  return Consolidate(s, rules, flush);
}

std::vector<Error> FinishConsolidation(const store::Store& store, const Consolidation& c) {
  cons::RemoveTrash(c.report.trash);
  std::vector<Error> warnings;
  bool changed = false;
  for (const auto& r : c.report.runs)
    changed = changed || (r.outcome == "ok" && !r.changed.empty());
  if (!changed) return warnings;
  auto summary = distill::Distill(store);
  std::string error = summary ? "" : summary.error().Format();
  if (!summary) warnings.push_back(summary.error());
  if (auto st = cons::RecordDistill(store, error); !st) warnings.push_back(st.error());
  // Memory changed: the index the prompt-time hooks read is brought up to date now.
  if (auto updated = RefreshIndex(store); !updated) warnings.push_back(updated.error());
  return warnings;
}

}  // namespace lore::app
