#include "store/leftovers.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <optional>

#include "fs/temp_name.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/sys/process.h"

namespace lore::store {
namespace {

constexpr const char* kRepair = "run lore check --repair";
constexpr const char* kBundleNames[] = {".okf.new", ".okf.old"};
constexpr const char* kDistillLock = ".distill.lock";

// The entries of a folder, or none when it cannot be listed (a leftover
// search reports what it finds and never fails).
std::vector<fs::DirEntry> List(const std::string& dir) {
  auto entries = fs::ListFolder(dir);
  return entries ? std::move(*entries) : std::vector<fs::DirEntry>{};
}

// A dead writer's temporary, when `e` is one (files and folders only).
std::optional<Leftover> DeadTemp(const std::string& dir, const fs::DirEntry& e) {
  if (!e.is_dir && !e.is_file) return std::nullopt;
  auto parsed = fs::ParseTempName(e.name);
  if (!parsed || sys::ProcessAlive(parsed->pid)) return std::nullopt;
  return Leftover{fs::Join(dir, e.name), e.is_dir, parsed->pid};
}

// The dead temporaries below `root`/`rel`, never through a symlinked folder.
void Walk(const std::string& root, const std::string& rel, std::vector<Leftover>* out) {
  auto entries = fs::ListDirBeneath(root, rel);
  if (!entries) return;
  const std::string dir = fs::Join(root, rel);
  for (const auto& e : *entries) {
    if (auto l = DeadTemp(dir, e)) {
      out->push_back(std::move(*l));
    } else if (e.is_dir) {
      Walk(root, rel + "/" + e.name, out);
    }
  }
}

bool IsBundleName(std::string_view name) {
  return std::find(std::begin(kBundleNames), std::end(kBundleNames), name) !=
         std::end(kBundleNames);
}

// The distill lock when no distill holds it (it is taken only when a bundle
// folder exists, so that checking a store creates no lock file needlessly).
std::optional<fs::FileLock> IdleDistill(const Store& store) {
  auto lock = fs::FileLock::TryAcquire(store.Path(kDistillLock), fs::LockMode::kExclusive);
  if (!lock) return std::nullopt;
  return std::move(*lock);
}

// The bundle folders a killed distill left, while okf/ is in place (when it
// is not, they are all that is left of it: `lore distill` restores it).
std::vector<Leftover> BundleLeftovers(const Store& store) {
  std::vector<Leftover> out;
  for (const char* name : kBundleNames) {
    auto st = fs::LStat(store.Path(name));
    if (st && S_ISDIR(st->st_mode)) out.push_back(Leftover{store.Path(name), true, 0});
  }
  auto okf = fs::LStat(store.okf_dir());
  if (out.empty() || !okf || !S_ISDIR(okf->st_mode) || !IdleDistill(store)) return {};
  return out;
}

}  // namespace

std::vector<Leftover> FindLeftovers(const Store& store) {
  std::vector<Leftover> out;
  auto st = fs::LStat(store.dir());
  if (st && S_ISDIR(st->st_mode)) {
    for (const auto& e : List(store.dir())) {
      if (IsBundleName(e.name)) continue;
      if (auto l = DeadTemp(store.dir(), e)) {
        out.push_back(std::move(*l));
      } else if (e.is_dir) {
        Walk(store.dir(), e.name, &out);
      }
    }
    for (auto& l : BundleLeftovers(store)) out.push_back(std::move(l));
  }
  for (const auto& e : List(store.root())) {
    auto parsed = fs::ParseTempName(e.name);
    if (!parsed || (parsed->base != store.key() && parsed->base != "import")) continue;
    if (auto l = DeadTemp(store.root(), e)) out.push_back(std::move(*l));
  }
  std::sort(out.begin(), out.end(),
            [](const Leftover& a, const Leftover& b) { return a.path < b.path; });
  return out;
}

Error LeftoverProblem(const Leftover& l) {
  std::string what = l.pid > 0 ? std::string("stale temporary ") + (l.folder ? "folder" : "file") +
                                     " of a writer that died (pid " + std::to_string(l.pid) + ")"
                               : "bundle folder left by an interrupted lore distill";
  return Error{ErrorCode::kCorrupt, what, l.path, 0, kRepair};
}

Status RemoveLeftovers(const Store& store, std::vector<std::string>* removed) {
  Status first = Ok();
  std::optional<fs::FileLock> distill;
  for (const auto& l : FindLeftovers(store)) {
    if (l.pid == 0) {
      // Under the distill lock, so that no distill starts using them meanwhile.
      if (!distill) distill = IdleDistill(store);
      if (!distill || !fs::Exists(store.okf_dir())) continue;
    }
    if (auto s = fs::RemoveTree(l.path); !s) {
      if (first) first = std::move(s);
      continue;
    }
    if (removed) removed->push_back(l.path);
  }
  return first;
}

}  // namespace lore::store
