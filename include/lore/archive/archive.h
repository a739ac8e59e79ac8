// Export and import of a whole store as one tar.gz archive.
//
// The archive holds the store's truth: every regular file and directory of
// the store except the derived search index (index.sqlite and its -wal/-shm
// companions) and lore's hidden bookkeeping (any name starting with '.',
// such as .lore-raw.check or a consolidation lock). Its layout:
//
//   manifest.json      {"format":"lore-store-archive","version":1,"key":...,"files":N}
//   store/...          the store's files and folders, with their mtimes
//
// A store exported and imported again is byte-identical: same files, same
// contents, modes 0600 (files) and 0700 (directories), same mtimes.
#pragma once

#include <cstdint>
#include <string>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::archive {

struct Summary {
  std::string key;    // the store key recorded in (or restored from) the archive
  std::string path;   // the archive written, or the store directory restored
  int64_t files = 0;  // regular files carried
  int64_t bytes = 0;  // their total size
};

// True when a store-relative path belongs in an archive (see above).
bool IsTruth(const std::string& rel);

// Writes the store's truth to `out_path` (atomically: a temporary file renamed
// into place), or to standard output when `out_path` is "-". The store must
// exist; a symlink or a special file inside it is an error naming it.
Result<Summary> Export(const store::Store& store, const std::string& out_path);

enum class Overwrite { kRefuse, kForce };

// Restores the archive at `archive_path` into `<stores_root>/<key>`, where
// `key` is the one given, or, when empty, the one in the archive's manifest.
// Every entry is checked before it is written: only `manifest.json` and paths
// under `store/` made of plain components (no absolute path, no `.` or `..`,
// no hidden names), only regular files and directories (no symlinks, hard
// links or devices). The archive is unpacked into a hidden folder beside the
// store, checked as a store (raw.jsonl lines, the index's frontmatter), then
// renamed into place, so a failure leaves the target as it was.
// The target must be missing or empty (at most the skeleton made by
// `lore ensure`: an empty raw.jsonl and an index without body) unless
// `overwrite` is kForce, which replaces it whole.
Result<Summary> Import(const std::string& archive_path, const std::string& stores_root,
                       const std::string& key, Overwrite overwrite);

}  // namespace lore::archive
