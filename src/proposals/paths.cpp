#include "lore/proposals/paths.h"

#include "lore/fs/fd.h"

namespace lore::proposals {

Paths Paths::InStore(const std::string& d) {
  Paths p;
  p.dir = d;
  p.queue = fs::Join(d, "proposals.jsonl");
  p.lock = fs::Join(d, "proposals-write.lock");
  p.archive = fs::Join(d, "proposals-archive.jsonl");
  p.rejected = fs::Join(d, "proposals.rejected.jsonl");
  p.learnings = fs::Join(d, "learnings.jsonl");
  p.events = fs::Join(d, "events.jsonl");
  p.config = fs::Join(d, "config.toml");
  p.summary_lock = fs::Join(d, ".proposals-summary.lock");
  return p;
}

std::string Paths::Summary(std::string_view wave) const {
  return fs::Join(dir,
                  std::string(kSummaryPrefix) + std::string(wave) + std::string(kSummarySuffix));
}

}  // namespace lore::proposals
