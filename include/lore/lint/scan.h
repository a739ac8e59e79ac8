// Loading every record of a store (for `lore lint`, for the consolidation
// worker's input), and listing slugs (for the linter's view of a write).
// Unlike lint.h, this reads files.
#pragma once

#include <string>
#include <vector>

#include "lore/doc/kind.h"
#include "lore/doc/record.h"
#include "lore/error.h"
#include "lore/lint/lint.h"

namespace lore::lint {

// The slugs of the records of `kind` under the store directory `root`: file
// names "<slug>.md" that are valid slugs (hidden files, other names and
// non-regular files skipped), sorted. The summary lists "summary" when
// memory/summary.md exists. A missing folder lists nothing; a symlinked
// folder is an error.
Result<std::vector<std::string>> ListSlugs(const std::string& root, doc::Kind kind);

struct LoadedRecord {
  doc::Kind kind = doc::Kind::kDecision;
  std::string slug;            // the file name without ".md" (may be an invalid slug)
  std::string path;            // <root>/<KindDir>/<slug>.md
  std::string text;            // the file's bytes; empty when it could not be read
  Result<doc::Record> record;  // the parsed record, or why it could not be read or parsed
  bool readable = false;       // false: `record` holds the read error (symlink, I/O)
};

struct LoadedStore {
  std::string root;
  std::vector<LoadedRecord> records;  // in kAllKinds order, then by file name
  std::vector<Error> problems;        // folders that could not be listed
  StoreView view;                     // every parsed record with a valid slug
};

// Reads and parses every "*.md" file in the record folders of the store at
// `root` (memory/summary.md, memory/decisions/, memory/requests/,
// memory/workflow/, knowledge/). Per-file trouble is kept in the record;
// an Error only when `root` is not a readable directory.
Result<LoadedStore> LoadStore(const std::string& root);

// Lints every loaded record as it is (Op::kCheck) against the whole store.
Report LintStore(const LoadedStore& store);

// `lore lint`: the findings of LoadStore and LintStore, in the same order,
// with every record read and parsed once and dropped once linted, so that
// memory holds only what the rules on the whole store need (each record's
// slug and references). A large store is read by one thread per core.
struct StoreLint {
  size_t records = 0;  // the record files found, as LoadedStore::records
  Report report;
};
// kReadable: only the findings of folders and records that cannot be read
// or parsed ("unreadable", "frontmatter"), for `lore check`, without the rules
// on the whole store (near slugs, references).
enum class Checks { kAll, kReadable };
Result<StoreLint> LintStoreAt(const std::string& root, Checks checks = Checks::kAll);

}  // namespace lore::lint
