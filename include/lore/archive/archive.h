// Export and import of a whole store as one tar.gz archive.
//
// The archive holds the store's truth: every regular file and directory of
// the store except the derived search index (index.sqlite and its -wal/-shm
// companions), lore's hidden bookkeeping (any name starting with '.',
// such as .lore-raw.check or a consolidation lock), settings kept aside
// by an earlier import (config.toml.imported) and what belongs to this
// machine alone (IsMachineLocal). Its layout:
//
//   store/...          the store's files and folders, with their mtimes
//   manifest.json      {"format":"lore-store-archive","version":1,"key":...,"files":N}
//
// (the manifest last, so that it counts the files really written; import
// takes it wherever it is). A store exported and imported again is
// byte-identical, but for what is machine-local: same files, same contents,
// modes 0600 (files) and 0700 (directories), same mtimes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
// True for what never leaves this machine: locks (`*.lock`: a lock left by a
// killed process on one host would block the importing host) and this
// machine's team identity, sync cursors and claimed review batch
// (teamsync::IsMachineState). Export leaves them out; import skips them in
// archives an older lore made.
bool IsMachineLocal(const std::string& rel);

// Writes the store's truth to `out_path` (atomically: a temporary file renamed
// into place), or to standard output when `out_path` is "-", holding the
// store lock (shared) so that no record write, consolidation commit,
// proposals write or import lands half seen; logs are read under their own
// flock (no half line). A file removed meanwhile by a writer the store lock
// does not exclude (a distill swapping okf/) is left out. The store must
// exist; a symlink or a special file inside it is an error naming it.
Result<Summary> Export(const store::Store& store, const std::string& out_path);

enum class Overwrite { kRefuse, kForce };

// What import unpacks at most; past any limit it stops with one error and
// leaves nothing behind (docs/agents.md). They guard against archives that
// expand into far more than they weigh.
struct ImportLimits {
  int64_t max_entries = 200000;                // files and folders
  int64_t max_entry_bytes = int64_t{1} << 30;  // one file: 1 GiB
  int64_t max_total_bytes = int64_t{4} << 30;  // all files: 4 GiB
  // All files together at most this many times the archive's size, once
  // more than `ratio_floor_bytes` are unpacked (gzip makes text 3-20 times
  // smaller; a run of zeros about 1000 times).
  int64_t max_ratio = 200;
  int64_t ratio_floor_bytes = int64_t{16} << 20;
};

struct ImportOptions {
  std::string key;  // the target store's key; empty: the archive's
  Overwrite overwrite = Overwrite::kRefuse;
  // Apply the archive's config.toml. Without it the archive's settings are
  // kept aside as config.toml.imported and never read; the store keeps its
  // own config.toml (or none, for a new store).
  bool with_config = false;
  ImportLimits limits;
};

// What an import did beyond the files: the settings and the files injected
// into every agent session start (memory/summary.md, okf/index.md).
struct ImportReport {
  Summary summary;
  // "none" (the archive has no config.toml), "kept-aside" (written as
  // config.toml.imported, not applied) or "applied" (--with-config).
  std::string config = "none";
  // With --with-config: one line per LLM setting (llm.base_url,
  // llm.api_key_env, memory.consolidation.engine) that differs from the
  // store's before, e.g. "llm.base_url is now 'https://x/v1' (was
  // 'https://api.openai.com/v1')".
  std::vector<std::string> setting_changes;
  // The injected files whose bytes the archive brought or changed, each
  // "memory/summary.md (replaced)" or "okf/index.md (new)".
  std::vector<std::string> injected;
  // The archive's knowledge pages and learnings, queued as proposals for the
  // person's review instead of going live (kept whole under imported/).
  int64_t proposed_pages = 0, proposed_learnings = 0;
};

// Restores the archive at `archive_path` (a regular file) into
// `<stores_root>/<key>`. Every entry is checked before anything is written,
// in a first pass over the headers: only `manifest.json` and paths under
// `store/` made of plain components (no absolute path, no `.` or `..`, no
// hidden names), only regular files and directories (no symlinks, hard links
// or devices), their count and declared sizes within `options.limits`; the
// second pass checks them again as it writes. Machine-local entries
// (IsMachineLocal) are skipped. The archive is unpacked into a
// hidden folder beside the store (removed on any failure), checked as a store
// (raw.jsonl lines, the index's frontmatter), then, under the store lock,
// exchanged with the store in one renameat2(RENAME_EXCHANGE) (a new store:
// one rename), so a failure or a crash leaves the target as it was or fully
// replaced. The target must be missing or empty (at most the skeleton made by
// `lore ensure`: an empty raw.jsonl and an index without body) unless
// `overwrite` is kForce, which replaces it whole.
Result<ImportReport> Import(const std::string& archive_path, const std::string& stores_root,
                            const ImportOptions& options);

// The name an archive's config.toml is kept under when not applied. Never
// exported, and refused inside an archive.
inline constexpr const char* kImportedConfig = "config.toml.imported";

}  // namespace lore::archive
