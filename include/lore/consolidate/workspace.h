// Workspace: a run's view of the store's memory/ and knowledge/, as an
// in-memory overlay over the files. Engines read through it and write into
// it; nothing reaches the disk until the run commits (consolidate/journal.h),
// so a failed or aborted run changes nothing.
//
// Paths are relative to the store ("memory/decisions/x.md"); callers check
// them first (consolidate/paths.h). The first read or write of a path notes
// the file's identity and content hash on disk (its baseline), so the
// commit can refuse to overwrite a file someone else changed meanwhile.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"

namespace lore::consolidate {

// What a file was on disk: absent, or a regular file with this identity
// and (when read) a hash of its bytes.
struct FileId {
  bool exists = false;
  uint64_t dev = 0, ino = 0;
  int64_t size = 0, mtime_ns = 0, ctime_ns = 0;
  uint64_t content = 0;  // hash of the bytes; 0 when not read
  bool operator==(const FileId&) const = default;
};

// A file read once: its identity (with the content hash) and bytes, both of
// the same open file; `bytes` is nullopt when it does not exist.
struct FileRead {
  FileId id;
  std::optional<std::string> bytes;
};
Result<FileRead> ReadIdentified(const std::string& path);
// ReadIdentified(path).id: what a run compares with its baseline.
Result<FileId> IdentifyContent(const std::string& path);

class Workspace {
 public:
  explicit Workspace(std::string store_dir) : dir_(std::move(store_dir)) {}

  // The current bytes of `rel` (overlay first, else the file); nullopt when
  // the file does not exist.
  Result<std::optional<std::string>> Read(const std::string& rel);
  // True when `rel` exists in the workspace.
  Result<bool> Exists(const std::string& rel);
  // Replaces the bytes of `rel` in the overlay.
  Status Write(const std::string& rel, std::string bytes);
  // The names (without ".md") of the Markdown files directly in folder
  // `rel_dir`, on disk or created in the overlay, sorted. Missing folder: none.
  // The folder is read once per workspace (the run's snapshot of it).
  Result<std::vector<std::string>> ListSlugs(const std::string& rel_dir);

  // When `rel` last changed: its modification time on disk (nanoseconds), or
  // INT64_MAX when this run changed it. Lets a reader look at the newest
  // records first without parsing every one. A missing file: INT64_MIN.
  Result<int64_t> ChangedAt(const std::string& rel);

  struct Change {
    std::string rel;
    std::string bytes;
  };
  // Files whose bytes differ from the disk's, sorted by path.
  std::vector<Change> Changes() const;

  // The overlay's state, to undo a rolled-back turn.
  using Snapshot = std::map<std::string, std::optional<std::string>>;
  Snapshot Save() const;
  void Restore(const Snapshot& snapshot);

  // Baselines of every path read or written.
  std::map<std::string, FileId> Baselines() const;
  const std::string& dir() const { return dir_; }

 private:
  struct Entry {
    FileId id;
    std::optional<std::string> original;
    std::optional<std::string> current;
  };
  Result<Entry*> Load(const std::string& rel);

  std::string dir_;
  std::map<std::string, Entry> files_;
  std::map<std::string, std::vector<std::string>> listings_;  // folder -> names on disk
};

}  // namespace lore::consolidate
