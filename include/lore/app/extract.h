// `lore extract` (Phase 1, docs/extract.md) as one use case, whichever engine
// runs it: the rules engine in lore, the model in lore-llm (which links
// libcurl and hands its engine in). Opening the store (created unless a dry
// run) and choosing the engine stay with the front end.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/extract/engine.h"
#include "lore/extract/extract.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

struct ExtractRequest {
  extract::Options options;  // transcript, session, dry_run, now
};

struct Extracted {
  extract::Outcome outcome;
  std::string json;             // extract::OutcomeJson, for standard output
  std::vector<Error> warnings;  // to show
};

Result<Extracted> Extract(const store::Store& store, const ExtractRequest& request,
                          extract::Engine& engine);

// `lore extract` with lore's own engine, the rules (the model's is lore-llm's).
Result<Extracted> ExtractWithRules(const store::Store& store, const ExtractRequest& request);

// The engine `lore extract` runs: `asked` (--engine) when given, else
// memory.extract_engine of config.toml ("rules" or "llm").
Result<std::string> ExtractEngine(const store::Store& store, const std::string& asked);

// `lore extract --rebuild`: the store created if missing (its raw log not
// re-checked), then staged again from its session logs (all, or `session`'s)
// with the rules engine of today. Returns the JSON report to print.
Result<std::string> RebuildFromSessionLogs(const store::Store& store, const std::string& session,
                                           text::TimePoint now);

}  // namespace lore::app
