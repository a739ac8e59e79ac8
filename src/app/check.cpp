#include "lore/app/check.h"

#include "consolidate/journal.h"
#include "lore/fs/fd.h"
#include "redact/file_scan.h"
#include "store/leftovers.h"

namespace lore::app {

Checked Check(const store::Store& store, bool repair) {
  Checked out;
  if (repair) {
    if (auto s = store::RemoveLeftovers(store, &out.removed); !s) out.repair_error = s.error();
  }
  out.problems = store.CheckAll();
  if (fs::Exists(store.dir())) {
    if (auto s = consolidate::CheckJournal(store); !s) out.problems.push_back(s.error());
  }
  for (const auto& l : store::FindLeftovers(store)) out.warnings.push_back(store::LeftoverProblem(l));
  return out;
}

Result<std::vector<SecretFound>> FindSecrets(const store::Store& store) {
  std::vector<SecretFound> found;
  LORE_TRY(redact::ScanTree(store.dir(), [&](const std::string& rel, int64_t line,
                                              redact::Rule rule) {
    found.push_back({fs::Join(store.dir(), rel), line, std::string(redact::RuleName(rule))});
  }));
  return found;
}

}  // namespace lore::app
