// The seam between the consolidation runner and what does the thinking: the
// rules engine (consolidate/rules_engine.h, in lore) or the LLM worker
// (src/llm/, in lore-llm).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/consolidate/settings.h"
#include "lore/consolidate/staged_entry.h"
#include "lore/consolidate/workspace.h"
#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::consolidate {

struct ConsumedEntry {
  std::string id;  // UUIDv7: also the entry's time
  StagedEntry entry;
};

struct RunInput {
  std::string run_id;
  text::TimePoint now;
  std::vector<ConsumedEntry> entries;  // oldest first
  const Settings* settings = nullptr;
  const store::Store* store = nullptr;  // read-only: session logs for the briefing
};

class Engine {
 public:
  virtual ~Engine() = default;
  // "rules" or "llm".
  virtual std::string_view name() const = 0;
  // Reads memory/ and knowledge/ through `ws` and writes the new state into
  // it. Returns notes for the run's report (one line each). An error fails
  // the run: nothing is committed and the staged entries stay.
  virtual Result<std::vector<std::string>> Run(const RunInput& in, Workspace& ws) = 0;
};

}  // namespace lore::consolidate
