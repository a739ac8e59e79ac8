// The rules engine: consolidation without a model (issue 6, deliverable 5;
// the rules are in docs/consolidation.md).
//
// For each consumed entry, oldest first, with the session's own time (the
// item's `at`, else the entry's `ended_at`, else the entry's UUIDv7) as the
// records' created_at/updated_at:
// - each decision updates the current record of its topic (same chosen:
//   rationale and source added), supersedes it (a different chosen: a new
//   record, the old one `status: replaced`, `replaced_by`), or creates the
//   topic's first record;
// - each request updates or creates the request record of its intent+target;
// - knowledge whose last_sources match the entry's source gets the entry's
//   decisions as update lines;
// - a failure whose error signature recurs in another session's log becomes
//   (or extends) a gotcha page in knowledge/: the knowledge-candidate report
//   of seed 002 given a real source;
// - memory/summary.md is rewritten as the briefing (consolidate/briefing.h)
//   from the session logs, decisions and gotchas.
// Every body lore writes stays within the linter's limits by construction
// (oldest bullets and sources go first), so no store can wedge. The same
// inputs give the same bytes, and applying an entry twice changes nothing
// the second time.
#pragma once

#include "lore/consolidate/engine.h"

namespace lore::consolidate {

class RulesEngine final : public Engine {
 public:
  std::string_view name() const override { return "rules"; }
  Result<std::vector<std::string>> Run(const RunInput& in, Workspace& ws) override;
};

}  // namespace lore::consolidate
