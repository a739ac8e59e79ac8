// Internal to lore::archive: reading an archive entry by entry into a
// folder, every entry checked (path, type, limits) before it is written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lore/archive/archive.h"
#include "lore/error.h"

namespace lore::archive {

// What one archive entry is, once its path has been checked.
struct EntryPath {
  bool manifest = false;
  bool root = false;  // "store/" itself
  std::string rel;    // below store/, without a trailing '/'
  bool skip = false;  // machine-local (IsMachineLocal): an older lore exported it; not written
};

// Checks an entry's path: "manifest.json", "store/" or a plain relative path
// below it (no empty, ".", ".." or hidden component, no control character)
// that is truth, or machine-local (skip).
Result<EntryPath> CheckPath(std::string_view path, const std::string& archive);

struct Manifest {
  std::string key;
  int64_t files = -1;  // -1 when not given
};

// manifest.json's text; every field type-checked (a "format" that is a
// number or null is an Error, never an exception).
Result<Manifest> ParseManifest(std::string_view text, const std::string& archive);

struct Unpacked {
  Manifest manifest;
  int64_t files = 0, bytes = 0;
  std::vector<std::pair<std::string, int64_t>> dir_times;  // folder -> mtime, in archive order
};

// Unpacks every entry of `archive` (a regular file) into `temp` (an empty
// directory): a first pass checks every header and the limits before
// anything is written.
Result<Unpacked> Unpack(const std::string& archive, const std::string& temp,
                        const ImportLimits& limits);

// Sets the folders' times from the archive, deepest first (writing inside a
// folder changes its time, so this comes last).
void RestoreDirTimes(const Unpacked& u);

}  // namespace lore::archive
