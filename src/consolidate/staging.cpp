#include "lore/consolidate/staging.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/sys/uuid.h"
#include "redact/redact.h"

namespace lore::consolidate {
namespace {

// Drops private spans and replaces secrets in every string of `entry`
// (docs/secrets.md). True when one changed.
bool CleanEntry(StagedEntry* entry) {
  bool changed = false;
  auto clean = [&changed](std::string* s) {
    std::string out;
    if (!redact::CleanNamedValue("", *s, &out)) return;
    *s = std::move(out);
    changed = true;
  };
  clean(&entry->source.session_id);
  for (auto& d : entry->decisions) {
    for (auto& o : d.options) clean(&o);
    clean(&d.chosen);
    clean(&d.rationale);
  }
  for (auto& d : entry->discussions) {
    clean(&d.topic);
    for (auto& p : d.points) clean(&p);
  }
  for (auto& a : entry->attempts) {
    clean(&a.action);
    clean(&a.result);
    clean(&a.cause);
    clean(&a.fix);
    for (auto& f : a.files) clean(&f);
  }
  for (auto& o : entry->outcomes) {
    clean(&o.what);
    clean(&o.detail);
  }
  for (auto& r : entry->requests) {
    clean(&r.intent);
    if (r.target) clean(&*r.target);
    clean(&r.summary);
  }
  return changed;
}

}  // namespace

Result<std::string> EnsureStagingDir(const store::Store& store) {
  std::string dir = store.Path(kStagingDir);
  LORE_TRY(fs::RefuseSymlink(dir, "staging folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  return dir;
}

std::string StagedPath(const store::Store& store, std::string_view id) {
  return fs::Join(store.Path(kStagingDir), std::string(id) + ".json");
}

Result<std::string> Stage(const store::Store& store, std::string_view input, text::TimePoint now) {
  LORE_ASSIGN(std::string text, PrepareEntry(input));
  LORE_TRY(EnsureStagingDir(store));
  std::string id = sys::NewUuidV7(now);
  std::string path = StagedPath(store, id);
  // The temporary file AtomicFile makes is a dot file, ignored by ListStaged.
  LORE_TRY(fs::WriteFileAtomic(path, text));
  return id;
}

Result<std::string> PrepareEntry(std::string_view input) {
  LORE_ASSIGN(StagedEntry entry, ParseStagedEntry(input, "<stdin>"));
  std::string text = RenderStagedEntry(entry);
  if (CleanEntry(&entry)) {
    // What is left must still be a valid entry: a field that was all private
    // or all secret is refused, never stored as it was.
    text = RenderStagedEntry(entry);
    if (auto again = ParseStagedEntry(text, "<stdin>"); !again) {
      Error e = again.error();
      e.what = "after removing private spans and secrets, " + e.what;
      e.repair = "give the field text of its own beside the private or secret part";
      return tl::unexpected(std::move(e));
    }
  }
  return text;
}

namespace {

std::string PendingDir(const store::Store& store) {
  return fs::Join(store.Path(kStagingDir), kPendingDir);
}

// `<name>.<id>.json`: `name` is a session's file stem, `id` a UUID.
std::string TentativeName(std::string_view name, std::string_view id) {
  return std::string(name) + "." + std::string(id) + ".json";
}

// Whether `file` is a tentative entry of `name`: `<name>.<36-character id>.json`.
bool IsTentativeOf(std::string_view file, std::string_view name) {
  constexpr size_t kIdChars = 36;
  return file.size() == name.size() + 1 + kIdChars + 5 && file.starts_with(name) &&
         file[name.size()] == '.' && file.ends_with(".json");
}

}  // namespace

Status WriteTentative(const store::Store& store, std::string_view name, std::string_view id,
                      std::string_view text) {
  LORE_TRY(EnsureStagingDir(store));
  const std::string pending = PendingDir(store);
  LORE_TRY(fs::RefuseSymlink(pending, "staging/.pending folder"));
  LORE_TRY(fs::MakeDirs(pending, 0700));
  return fs::WriteFileAtomic(fs::Join(pending, TentativeName(name, id)), text);
}

Result<bool> Publish(const store::Store& store, std::string_view name, std::string_view id) {
  const std::string from = fs::Join(PendingDir(store), TentativeName(name, id));
  const std::string to = StagedPath(store, id);
  // Never over a staged entry: an id names one entry.
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) != 0) {
    if (errno == ENOENT) return false;  // published before
    return tl::unexpected(fs::ErrnoError(errno, "cannot publish the staged entry", from));
  }
  LORE_TRY(fs::SyncDir(store.Path(kStagingDir)));
  return true;
}

Result<bool> DropTentative(const store::Store& store, std::string_view name) {
  const std::string rel = std::string(kStagingDir) + "/" + std::string(kPendingDir);
  LORE_ASSIGN(auto entries, fs::ListExisting(store.dir(), rel));
  bool dropped = false;
  for (const auto& e : entries) {
    if (!IsTentativeOf(e.name, name)) continue;
    const std::string path = fs::Join(PendingDir(store), e.name);
    if (::unlink(path.c_str()) == 0) {
      dropped = true;
    } else if (errno != ENOENT) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot remove", path));
    }
  }
  return dropped;
}

Result<std::vector<StagedFile>> ListStaged(const store::Store& store) {
  std::string dir = store.Path(kStagingDir);
  LORE_TRY(fs::RefuseSymlink(dir, "staging folder"));
  std::vector<StagedFile> out;
  // An entry consumed while this lists is left out (ListStat::kFull).
  LORE_ASSIGN(auto entries, fs::ListExisting(store.dir(), kStagingDir, fs::ListStat::kFull));
  for (const auto& e : entries) {
    std::string_view name = e.name;
    if (!e.is_file || name.size() != 41 || name.substr(36) != ".json" ||
        !sys::IsUuidV7(name.substr(0, 36)))
      continue;
    out.push_back({std::string(name.substr(0, 36)), e.size});
  }
  return out;
}

StagingTotals Totals(const std::vector<StagedFile>& files) {
  StagingTotals t;
  for (const auto& f : files) {
    ++t.files;
    t.bytes += f.bytes;
  }
  return t;
}

bool AtThreshold(const StagingTotals& totals, const Settings& settings) {
  return totals.files >= settings.threshold_files || totals.bytes >= settings.threshold_bytes;
}

}  // namespace lore::consolidate
