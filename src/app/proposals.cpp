#include "lore/app/proposals.h"

#include "lore/json/dump_js.h"
#include "lore/proposals/collect.h"
#include "lore/proposals/paths.h"

namespace lore::app {

Result<ProposalsListing> ListProposals(const store::Store& store,
                                       std::optional<double> min_confidence, bool json) {
  LORE_ASSIGN(proposals::Collected c,
              proposals::Collect(proposals::Paths::InStore(store.dir()), min_confidence));
  ProposalsListing out;
  for (const auto& path : c.unreadable) {
    out.warnings.push_back(Error{ErrorCode::kCorrupt,
                                 "summary file does not parse; its counters are left out", path, 0,
                                 "fix or remove it"});
  }
  out.text = json ? json::DumpJs(proposals::ToJson(c)) + "\n" : proposals::ToText(c);
  return out;
}

}  // namespace lore::app
