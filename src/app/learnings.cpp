#include "lore/app/learnings.h"

#include "lore/fs/fd.h"
#include "lore/learnings/file.h"
#include "lore/learnings/list.h"

namespace lore::app {

Result<LearningsListing> ListLearnings(const store::Store& store, bool json, bool all,
                                       text::TimePoint now) {
  const learnings::Files files = learnings::Files::InStore(store.dir());
  learnings::FileScan scan;
  if (fs::Exists(files.dir)) {
    LORE_ASSIGN(scan, learnings::ReadLearnings(files.learnings));
  }
  learnings::ListOptions o;
  o.now = now;
  o.all = all;
  learnings::Listing listed = json ? learnings::ListJson(scan, o) : learnings::ListTable(scan, o);
  LearningsListing out;
  out.text = std::move(listed.text);
  if (listed.malformed > 0) {
    out.warning =
        Error{ErrorCode::kCorrupt,
              std::to_string(listed.malformed) +
                  (listed.malformed == 1 ? " line is not a JSON object and is not listed in"
                                         : " lines are not JSON objects and are not listed in"),
              files.learnings, 0, "they are kept as they are; fix or remove them by hand"};
  }
  return out;
}

Result<learnings::ContradictResult> ContradictLearning(const store::Store& store,
                                                       std::string_view id) {
  const learnings::Files files = learnings::Files::InStore(store.dir());
  if (!fs::Exists(files.dir)) {
    return Fail(ErrorCode::kNotFound, "no learning has id " + std::string(id), files.learnings, 0,
                "run 'lore learnings <repo> --all' to see the ids");
  }
  return learnings::Contradict(files, id);
}

Result<learnings::PruneResult> PruneLearnings(const store::Store& store, text::TimePoint now) {
  const learnings::Files files = learnings::Files::InStore(store.dir());
  if (!fs::Exists(files.dir)) return learnings::PruneResult{};
  learnings::PruneOptions o;
  o.now = now;
  return learnings::Prune(files, o);
}

}  // namespace lore::app
