#include "store/quarantine.h"

#include <cerrno>
#include <cstdio>

#include "lore/fs/fd.h"

namespace lore::store {
namespace {

// quarantine/ and the folders of `rel` below it, created (0700, never through
// a symlink) and synced so that what is renamed into them stays.
Result<std::string> QuarantineFolder(const Store& store, std::string_view rel) {
  const std::string top = store.Path(kQuarantineDir);
  LORE_TRY(fs::RefuseSymlink(top, "quarantine folder"));
  const std::string dir = fs::Dirname(fs::Join(top, rel));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  for (std::string d = dir; d.size() >= top.size(); d = fs::Dirname(d)) {
    LORE_TRY(fs::SyncDir(fs::Dirname(d)));
    if (d == top) break;
  }
  return dir;
}

}  // namespace

Result<std::optional<std::string>> QuarantineTornTail(const Store& store, std::string_view rel,
                                                      const log::CutRule& rule) {
  auto aside = [&](uint64_t offset) -> Result<std::string> {
    LORE_TRY(QuarantineFolder(store, rel));
    return fs::Join(store.Path(kQuarantineDir),
                    std::string(rel) + ".torn-at-" + std::to_string(offset));
  };
  return log::QuarantineTornTail(store.Path(rel), rule, aside);
}

Result<std::string> MoveToQuarantine(const Store& store, std::string_view rel) {
  LORE_ASSIGN(std::string dir, QuarantineFolder(store, rel));
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
