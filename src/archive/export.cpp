#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <archive.h>
#include <archive_entry.h>
#include "fs/atomic_file.h"
#include "lore/archive/archive.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/json/value.h"
#include "lore/store/store_lock.h"
#include "lore/version.h"

namespace lore::archive {
namespace {

// How long an export waits for a record write, a commit or an import.
constexpr std::chrono::milliseconds kExportLockTimeout{60000};

// Where archive bytes go: an AtomicFile, or a plain descriptor (stdout).
struct Sink {
  fs::AtomicFile* file = nullptr;
  int fd = -1;
  std::string name;
  Error error;
  bool failed = false;
};

la_ssize_t WriteCallback(struct archive*, void* client, const void* buf, size_t n) {
  auto* sink = static_cast<Sink*>(client);
  std::string_view data(static_cast<const char*>(buf), n);
  Status s = sink->file ? sink->file->Write(data) : fs::WriteAll(sink->fd, data, sink->name);
  if (!s) {
    sink->error = s.error();
    sink->failed = true;
    return -1;
  }
  return static_cast<la_ssize_t>(n);
}

class Writer {
 public:
  explicit Writer(Sink* sink) : sink_(sink), a_(::archive_write_new()) {}
  ~Writer() {
    if (a_) ::archive_write_free(a_);
  }

  Status Open() {
    if (::archive_write_add_filter_gzip(a_) != ARCHIVE_OK ||
        ::archive_write_set_format_pax_restricted(a_) != ARCHIVE_OK) {
      return Failure();
    }
    // No time stamp in the gzip header: the same store gives the same bytes.
    (void)::archive_write_set_options(a_, "gzip:!timestamp");
    if (::archive_write_open(a_, sink_, nullptr, WriteCallback, nullptr) != ARCHIVE_OK) {
      return Failure();
    }
    return Ok();
  }

  Status Add(const std::string& path, bool is_dir, std::string_view data, int64_t mtime) {
    struct archive_entry* e = ::archive_entry_new();
    ::archive_entry_set_pathname(e, path.c_str());
    ::archive_entry_set_filetype(e, is_dir ? AE_IFDIR : AE_IFREG);
    ::archive_entry_set_perm(e, is_dir ? 0700 : 0600);
    ::archive_entry_set_size(e, is_dir ? 0 : static_cast<la_int64_t>(data.size()));
    ::archive_entry_set_mtime(e, static_cast<time_t>(mtime), 0);
    int rc = ::archive_write_header(a_, e);
    ::archive_entry_free(e);
    if (rc != ARCHIVE_OK) return Failure();
    while (!data.empty()) {
      la_ssize_t n = ::archive_write_data(a_, data.data(), data.size());
      if (n <= 0) return Failure();
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Ok();
  }

  Status Close() {
    if (::archive_write_close(a_) != ARCHIVE_OK) return Failure();
    return Ok();
  }

 private:
  Status Failure() {
    if (sink_->failed) return tl::unexpected(sink_->error);
    const char* why = ::archive_error_string(a_);
    return Fail(ErrorCode::kIo, std::string("cannot write archive: ") + (why ? why : "unknown"),
                sink_->name);
  }

  Sink* sink_;
  struct archive* a_;
};

// A file of the store as it is now; nullopt when it was removed since the
// walk (by a writer the store lock does not exclude, e.g. a distill swapping
// okf/): the archive is then as if taken after the removal. Logs are read
// under a shared flock, so that no appended line is half seen (appenders
// hold it exclusively for each line).
Result<std::optional<std::string>> ReadStoreFile(const std::string& path) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd && fd.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
  if (!fd) return tl::unexpected(fd.error());
  const bool log = path.size() > 6 && path.compare(path.size() - 6, 6, ".jsonl") == 0;
  if (log) LORE_TRY(fs::LockFd(fd->get(), fs::LockMode::kShared, path));
  LORE_ASSIGN(std::string data, fs::ReadAll(fd->get(), path, fs::Kind::kArchive));
  return std::optional<std::string>(std::move(data));
}

// The store's truth, checked: no symlinks or special files.
Result<std::vector<fs::TreeEntry>> TruthEntries(const store::Store& store) {
  LORE_TRY(fs::RefuseSymlink(fs::Dirname(store.root()), "parent of the stores root"));
  LORE_TRY(fs::RefuseSymlink(store.root(), "stores root"));
  LORE_TRY(fs::RefuseSymlink(store.dir(), "store directory"));
  auto st = fs::LStat(store.dir());
  if (!st) {
    if (st.error().code == ErrorCode::kNotFound) {
      return Fail(ErrorCode::kNotFound, "no store to export", store.dir(), 0,
                  "check the repository argument (lore ensure <repo> prints the store's path)");
    }
    return tl::unexpected(st.error());
  }
  LORE_ASSIGN(std::vector<fs::TreeEntry> all, fs::WalkTree(store.dir()));
  std::vector<fs::TreeEntry> out;
  for (auto& e : all) {
    if (!IsTruth(e.rel)) continue;
    if (e.type == fs::EntryType::kSymlink || e.type == fs::EntryType::kOther) {
      return Fail(ErrorCode::kSymlink,
                  e.type == fs::EntryType::kSymlink ? "symlink inside the store"
                                                    : "special file inside the store",
                  store.Path(e.rel), 0,
                  "replace it with a regular file or move it out of the store");
    }
    out.push_back(std::move(e));
  }
  return out;
}

// The store's entries, then the manifest: it comes last so that its count
// is of the files really written (a file removed since the walk is left out).
Status WriteAll(const store::Store& store, const std::vector<fs::TreeEntry>& entries, Writer& w,
                Summary* summary) {
  int64_t newest = 0;
  for (const auto& e : entries) newest = std::max(newest, e.mtime);
  LORE_TRY(w.Open());
  auto root = fs::LStat(store.dir());
  LORE_TRY(w.Add("store/", true, {}, root ? root->st_mtim.tv_sec : newest));
  for (const auto& e : entries) {
    if (e.type == fs::EntryType::kDirectory) {
      LORE_TRY(w.Add("store/" + e.rel + "/", true, {}, e.mtime));
      continue;
    }
    LORE_ASSIGN(std::optional<std::string> data, ReadStoreFile(store.Path(e.rel)));
    if (!data) continue;
    summary->files += 1;
    summary->bytes += static_cast<int64_t>(data->size());
    LORE_TRY(w.Add("store/" + e.rel, false, *data, e.mtime));
  }
  Json manifest;
  manifest["format"] = "lore-store-archive";
  manifest["version"] = 1;
  manifest["key"] = store.key();
  manifest["files"] = summary->files;
  manifest["lore"] = kVersion;
  LORE_TRY(w.Add("manifest.json", false, manifest.dump() + "\n", newest));
  return w.Close();
}

}  // namespace

Result<Summary> Export(const store::Store& store, const std::string& out_path) {
  LORE_TRY(fs::RefuseSymlink(fs::Dirname(store.root()), "parent of the stores root"));
  LORE_TRY(fs::RefuseSymlink(store.root(), "stores root"));
  // A consistent snapshot: no record write, consolidation commit, proposals
  // write (propose, review) or import lands while the store is read.
  auto lock = store::StoreLock::Acquire(store.dir(), fs::LockMode::kShared, kExportLockTimeout);
  if (!lock && lock.error().code != ErrorCode::kNotFound) return tl::unexpected(lock.error());
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, TruthEntries(store));
  Summary summary;
  summary.key = store.key();
  summary.path = out_path == "-" ? "-" : fs::Absolute(out_path);

  Sink sink;
  sink.name = out_path == "-" ? "<stdout>" : summary.path;
  if (out_path == "-") {
    sink.fd = STDOUT_FILENO;
    Writer w(&sink);
    LORE_TRY(WriteAll(store, entries, w, &summary));
    return summary;
  }
  LORE_ASSIGN(fs::AtomicFile file, fs::AtomicFile::Create(summary.path, 0600));
  sink.file = &file;
  {
    Writer w(&sink);
    LORE_TRY(WriteAll(store, entries, w, &summary));
  }
  LORE_TRY(file.Commit());
  return summary;
}

}  // namespace lore::archive
