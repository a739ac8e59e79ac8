// The rules engine: consolidation without a model (issue 6, deliverable 5;
// the rules are in docs/consolidation.md).
//
// For each consumed entry, oldest first, with the entry's time (from its
// UUIDv7) as the records' created_at/updated_at:
// - each decision updates the current record of its topic (same chosen:
//   rationale and source added), supersedes it (a different chosen: a new
//   record, the old one `status: replaced`, `replaced_by`), or creates the
//   topic's first record;
// - each request updates or creates the request record of its intent+target;
// - each discussion becomes (or extends) one line of the summary;
// - attempts are dropped, but the run's failed ones make at most one line;
// - knowledge whose last_sources match the entry's source gets the entry's
//   decisions as update lines; knowledge is never created.
// The same inputs give the same bytes, and applying an entry twice changes
// nothing the second time.
#pragma once

#include "lore/consolidate/engine.h"

namespace lore::consolidate {

class RulesEngine final : public Engine {
 public:
  std::string_view name() const override { return "rules"; }
  Result<std::vector<std::string>> Run(const RunInput& in, Workspace& ws) override;
};

}  // namespace lore::consolidate
