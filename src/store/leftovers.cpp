#include "lore/store/leftovers.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <optional>

#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/temp_name.h"
#include "lore/fs/tree.h"
#include "lore/sys/process.h"

namespace lore::store {
namespace {

constexpr const char* kRepair = "run lore check --repair";
constexpr const char* kBundleNames[] = {".okf.new", ".okf.old"};
constexpr const char* kDistillLock = ".distill.lock";

struct DirEntry {
  std::string name;
  bool folder = false;
  bool regular = false;
};

std::vector<DirEntry> List(const std::string& dir) {
  std::vector<DirEntry> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st;
    if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    out.push_back({std::string(name), S_ISDIR(st.st_mode), S_ISREG(st.st_mode)});
  }
  ::closedir(d);
  return out;
}

// A dead writer's temporary, when `e` is one (files and folders only).
std::optional<Leftover> DeadTemp(const std::string& dir, const DirEntry& e) {
  if (!e.folder && !e.regular) return std::nullopt;
  auto parsed = fs::ParseTempName(e.name);
  if (!parsed || sys::ProcessAlive(parsed->pid)) return std::nullopt;
  return Leftover{fs::Join(dir, e.name), e.folder, parsed->pid};
}

void Walk(const std::string& dir, std::vector<Leftover>* out) {
  for (const auto& e : List(dir)) {
    if (auto l = DeadTemp(dir, e)) {
      out->push_back(std::move(*l));
    } else if (e.folder) {
      Walk(fs::Join(dir, e.name), out);
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
      } else if (e.folder) {
        Walk(store.Path(e.name), &out);
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
