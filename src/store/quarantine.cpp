#include "store/quarantine.h"

#include <cerrno>
#include <cstdio>
#include <functional>

#include "lore/fs/fd.h"

namespace lore::store {
namespace {

// quarantine/ and the folders of `rel` below it, created (0700, never through
// a symlink) and synced so that what is renamed into them stays.
Result<std::string> QuarantineFolder(const std::string& store_dir, std::string_view rel) {
  const std::string top = fs::Join(store_dir, kQuarantineDir);
  LORE_TRY(fs::RefuseSymlink(top, "quarantine folder"));
  const std::string dir = fs::Dirname(fs::Join(top, rel));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  for (std::string d = dir; d.size() >= top.size(); d = fs::Dirname(d)) {
    LORE_TRY(fs::SyncDir(fs::Dirname(d)));
    if (d == top) break;
  }
  return dir;
}

// Where the torn tail of `rel` cut at `offset` goes (its folder made).
std::function<Result<std::string>(uint64_t)> TornAside(const std::string& store_dir,
                                                       std::string_view rel) {
  return [store_dir, rel = std::string(rel)](uint64_t offset) -> Result<std::string> {
    LORE_TRY(QuarantineFolder(store_dir, rel));
    return fs::Join(fs::Join(store_dir, kQuarantineDir),
                    rel + ".torn-at-" + std::to_string(offset));
  };
}

}  // namespace

Result<std::optional<std::string>> QuarantineTornTail(const Store& store, std::string_view rel,
                                                      const log::CutRule& rule) {
  return log::QuarantineTornTail(store.Path(rel), rule, TornAside(store.dir(), rel));
}

Result<std::optional<std::string>> QuarantineTornTailOf(const std::string& store_dir,
                                                        std::string_view rel, int fd,
                                                        const log::CutRule& rule) {
  return log::QuarantineTornTailOf(fd, fs::Join(store_dir, rel), rule, TornAside(store_dir, rel));
}

Result<std::string> MoveToQuarantine(const Store& store, std::string_view rel) {
  LORE_ASSIGN(std::string dir, QuarantineFolder(store.dir(), rel));
  const std::string base = fs::Join(store.Path(kQuarantineDir), std::string(rel) + ".unreadable");
  std::string to = base;
  for (int n = 2; fs::Exists(to); ++n) to = base + "." + std::to_string(n);
  const std::string from = store.Path(rel);
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot move into quarantine/", from));
  }
  LORE_TRY(fs::SyncDir(dir));
  LORE_TRY(fs::SyncDir(fs::Dirname(from)));
  return to;
}

}  // namespace lore::store
