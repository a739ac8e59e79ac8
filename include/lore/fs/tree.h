// Walking and removing directory trees without following symlinks.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

namespace lore::fs {

enum class EntryType { kFile, kDirectory, kSymlink, kOther };

struct TreeEntry {
  std::string rel;  // path relative to the walked root, '/'-separated
  EntryType type = EntryType::kOther;
  mode_t mode = 0;    // permission bits
  int64_t size = 0;   // bytes, for files
  int64_t mtime = 0;  // seconds since the epoch
};

// Every entry under `root` (not `root` itself), depth first, sorted by byte
// order of their relative paths, directories before their contents. Symlinks
// are listed, never followed. An error when `root` cannot be read.
Result<std::vector<TreeEntry>> WalkTree(const std::string& root);

// One entry of a directory listing.
struct DirEntry {
  std::string name;
  bool is_dir = false;   // a directory (never a symlink to one)
  bool is_file = false;  // a regular file (never a symlink to one)
  int64_t size = 0;      // bytes of a regular file (ListStat::kFull only)
  int64_t mtime = 0;     // seconds since the epoch (ListStat::kFull only)
  int64_t mtime_ns = 0;  // the same in nanoseconds (ListStat::kFull only)
};
// What a listing learns of each entry: its type (from readdir, else fstatat),
// or with kFull its size and time too (fstatat on each; an entry removed
// meanwhile is left out).
enum class ListStat { kType, kFull };
// The entries of the directory open as `dirfd` (named `path` in errors),
// without "." and "..", sorted by name; `dirfd` stays open and owned by the
// caller. Nothing is followed: a symlink is neither a file nor a folder.
Result<std::vector<DirEntry>> ListDir(int dirfd, const std::string& path,
                                      ListStat stat = ListStat::kType);
// The entries of `root`/`rel`, opened with OpenBeneath (no symlink in any
// component); a missing folder is an Error with code kNotFound.
Result<std::vector<DirEntry>> ListDirBeneath(const std::string& root, std::string_view rel,
                                             ListStat stat = ListStat::kType);
// ListDirBeneath for a folder that appears on first use (staging/, sessions/,
// a record folder): a missing one lists as empty; any other failure, a
// symlink on the way included, is still an error.
Result<std::vector<DirEntry>> ListExisting(const std::string& root, std::string_view rel,
                                           ListStat stat = ListStat::kType);
// The entries of `dir`, opened without following a symlink as its last
// component (a store's own root, LORE_HOME); a missing folder is kNotFound.
Result<std::vector<DirEntry>> ListFolder(const std::string& dir, ListStat stat = ListStat::kType);

// Removes `path` and everything below it: the one tree remover of lore.
// Symlinks are unlinked, never followed (the walk goes through directory
// descriptors opened with O_NOFOLLOW, so a symlink swapped in meanwhile is
// not followed either). A missing `path` (or entry) is not an error; the
// first other failure stops the removal and is returned naming the entry.
// Callers that remove best effort (cleaning up after another error) ignore
// the result with (void).
Status RemoveTree(const std::string& path);

}  // namespace lore::fs
