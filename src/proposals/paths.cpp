#include "lore/proposals/paths.h"

#include "lore/fs/fd.h"
#include "lore/store/layout.h"

namespace lore::proposals {

Paths Paths::InStore(const std::string& d) {
  Paths p;
  p.dir = d;
  p.queue = fs::Join(d, store::kProposalsFile);
  p.lock = fs::Join(d, "proposals-write.lock");
  p.archive = fs::Join(d, store::kProposalsArchiveFile);
  p.rejected = fs::Join(d, store::kProposalsRejectedFile);
  p.learnings = fs::Join(d, store::kLearningsFile);
  p.events = fs::Join(d, store::kEventsFile);
  p.config = fs::Join(d, store::kConfigFile);
  p.summary_lock = fs::Join(d, ".proposals-summary.lock");
  return p;
}

std::string Paths::Summary(std::string_view wave) const {
  return fs::Join(dir,
                  std::string(kSummaryPrefix) + std::string(wave) + std::string(kSummarySuffix));
}

}  // namespace lore::proposals
