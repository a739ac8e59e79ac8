// `lore consolidate` as one use case, whichever engine runs it: the rules
// engine in lore, the model in lore-llm (which links libcurl and hands its
// engine in). Finding the store, choosing the engine and the team's lock stay
// with the front end; this is the run and what it reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/app/store.h"
#include "lore/consolidate/engine.h"
#include "lore/consolidate/runner.h"
#include "lore/error.h"
#include "lore/text/time.h"

namespace lore::app {

// `lore stage`: validates `input` as a staged entry and stages it in the
// store's staging folder at `now`; its id.
Result<std::string> Stage(const store::Store& store, std::string_view input, text::TimePoint now);

// Whether a consolidation should start now, after a stage: the staged
// entries reach a threshold of the settings and no consolidation is running
// (a lock that cannot be read does not stop it). An Error when the settings
// or the staging folder cannot be read.
Result<bool> ConsolidationDue(const store::Store& store);

struct Consolidation {
  consolidate::ConsolidateReport report;
  std::vector<Error> warnings;     // to show as warnings, before the lines
  std::vector<std::string> lines;  // for standard output
  int exit_code = 0;               // 0, 1 a run failed, consolidate::kExitBusy
};

// Runs the consolidations `s` is due for (all staged entries with `flush`)
// with `engine`. An Error only when the machinery fails (docs/consolidation.md).
Result<Consolidation> Consolidate(const OpenedStore& s, consolidate::Engine& engine, bool flush);
// The same with lore's own engine, the rules (no model).
Result<Consolidation> ConsolidateWithRules(const OpenedStore& s, bool flush);

// What follows once the lines are shown (the caller need not wait for it):
// frees what the commits displaced and distills okf/ again when a run changed
// memory, whichever engine wrote it, so that the bundle the session-start
// context names is never behind memory (a failure is recorded on the run).
// Returns the warnings to show.
std::vector<Error> FinishConsolidation(const store::Store& store, const Consolidation& c);

}  // namespace lore::app
