// `lore learnings` (docs/learnings.md): list a store's learnings, contradict
// one, prune the expired ones. A store not made yet holds none.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/learnings/update.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

struct LearningsListing {
  std::string text;              // the table, or with `json` the array as stored; ends with '\n'
  std::optional<Error> warning;  // lines that are not JSON objects, not listed
};

// The learnings live at `now` (with `all`, the others too, marked).
Result<LearningsListing> ListLearnings(const store::Store& store, bool json, bool all,
                                       text::TimePoint now);

// Lowers the confidence of learning `id` (or a unique prefix of 4 or more).
Result<learnings::ContradictResult> ContradictLearning(const store::Store& store,
                                                       std::string_view id);

// Removes the learnings not live at `now`, archived to learnings-archive.jsonl.
Result<learnings::PruneResult> PruneLearnings(const store::Store& store, text::TimePoint now);

}  // namespace lore::app
