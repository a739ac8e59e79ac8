// `lore proposals` (docs/proposals.md): the queue of proposals waiting for
// review, listed for a person or as JSON, with the per-wave counters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::app {

struct ProposalsListing {
  // The counters, then each queued record numbered; with `json`
  // {"queue","stats","perWaveSummaries"} and a '\n'. Printed as it is.
  std::string text;
  // One per summary file that does not parse: its counters are left out.
  std::vector<Error> warnings;
};

// The queue of `store`, oldest first. With `min_confidence`, only the
// proposals at or above it and those without a numeric confidence.
Result<ProposalsListing> ListProposals(const store::Store& store,
                                       std::optional<double> min_confidence, bool json);

}  // namespace lore::app
