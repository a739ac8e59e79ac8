// Writing okf/ as a whole: the new bundle is built in the hidden folder
// .okf.new beside it and exchanged with okf/ in one renameat2(RENAME_EXCHANGE)
// (or, where the file system cannot, two renames with a recovery step), so
// that a crash leaves the old bundle or the new one. Internal.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::distill {

using Pages = std::vector<std::pair<std::string, std::string>>;  // file name -> bytes

// Repairs what an interrupted run left: a missing okf/ is restored from
// .okf.new (complete: it is only renamed once built) or .okf.old; leftovers
// are removed.
Status RecoverBundle(const store::Store& store);

// True when okf/ already holds exactly `pages` among the generated names.
Result<bool> BundleMatches(const store::Store& store, const Pages& pages);

// Builds .okf.new with `pages` plus every other (non-hidden) file and folder
// of okf/ copied over, then swaps it in.
Status WriteBundle(const store::Store& store, const Pages& pages);

}  // namespace lore::distill
