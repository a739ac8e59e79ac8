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
  mode_t mode = 0;     // permission bits
  int64_t size = 0;    // bytes, for files
  int64_t mtime = 0;   // seconds since the epoch
};

// Every entry under `root` (not `root` itself), depth first, sorted by byte
// order of their relative paths, directories before their contents. Symlinks
// are listed, never followed. An error when `root` cannot be read.
Result<std::vector<TreeEntry>> WalkTree(const std::string& root);

// Removes `path` and everything below it (symlinks are unlinked, never
// followed). A missing `path` is not an error.
Status RemoveTree(const std::string& path);

}  // namespace lore::fs
