#include "lore/app/check.h"

#include <sys/stat.h>

#include <set>

#include "app/check_files.h"
#include "consolidate/journal.h"
#include "lore/fs/fd.h"
#include "redact/file_scan.h"
#include "store/leftovers.h"

namespace lore::app {
namespace {

// Whether the store's folder is sound enough to look inside: a real folder,
// reached without a symlink, made for this repository.
bool Walkable(const store::Store& store) {
  for (const std::string& p : {fs::Dirname(store.root()), store.root(), store.dir()}) {
    if (!fs::RefuseSymlink(p, "")) return false;
  }
  auto st = fs::LStat(store.dir());
  return st && S_ISDIR(st->st_mode) && store.CheckRemote(false);
}

}  // namespace

Checked Check(const store::Store& store, bool repair) {
  Checked out;
  const bool walkable = Walkable(store);
  if (repair) {
    if (auto s = store::RemoveLeftovers(store, &out.removed); !s) out.repair_error = s.error();
    if (walkable) {
      if (auto s = RepairFiles(store, &out.repaired); !s && !out.repair_error) {
        out.repair_error = s.error();
      }
    }
  }
  out.problems = store.CheckAll();
  if (walkable) {
    std::set<std::string> seen;
    for (const Error& e : out.problems) seen.insert(e.path);
    for (Error& e : CheckFiles(store)) {
      if (!seen.count(e.path)) out.problems.push_back(std::move(e));
    }
    if (auto s = consolidate::CheckJournal(store); !s) out.problems.push_back(s.error());
  }
  for (const auto& l : store::FindLeftovers(store))
    out.warnings.push_back(store::LeftoverProblem(l));
  return out;
}

Result<std::vector<SecretFound>> FindSecrets(const store::Store& store) {
  std::vector<SecretFound> found;
  LORE_TRY(
      redact::ScanTree(store.dir(), [&](const std::string& rel, int64_t line, redact::Rule rule) {
        found.push_back({fs::Join(store.dir(), rel), line, std::string(redact::RuleName(rule))});
      }));
  return found;
}

}  // namespace lore::app
