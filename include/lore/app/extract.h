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

}  // namespace lore::app
