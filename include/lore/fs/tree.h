// Walking and removing directory trees without following symlinks.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
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

// Removes `path` and everything below it: the one tree remover of lore.
// Symlinks are unlinked, never followed (the walk goes through directory
// descriptors opened with O_NOFOLLOW, so a symlink swapped in meanwhile is
// not followed either). A missing `path` (or entry) is not an error; the
// first other failure stops the removal and is returned naming the entry.
// Callers that remove best effort (cleaning up after another error) ignore
// the result with (void).
Status RemoveTree(const std::string& path);

}  // namespace lore::fs
