// What the page's views (browse.cpp) and changes (curate.cpp) share.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lore/doc/kind.h"
#include "lore/error.h"
#include "lore/store/store.h"
#include "recall/usage.h"

namespace lore::app::page {

// The usage log folded; a log that cannot be read shows no usage rather than
// no page.
recall::Usage ReadUsageOrNone(const store::Store& store);

// The kinds the page may edit: decisions, requests, knowledge.
bool Editable(doc::Kind k);

// A record's id ("memory/decisions/x.md") to its kind and slug.
struct RecordRef {
  doc::Kind kind;
  std::string slug;
};
std::optional<RecordRef> RecordOf(std::string_view id);

// A team store's queue is reviewed a claimed batch at a time (lore-team,
// docs/team.md), which only `lore review` does: the page refuses it rather
// than decide proposals another machine may be deciding.
::lore::Status RefuseTeamQueue(const store::Store& store);

}  // namespace lore::app::page
