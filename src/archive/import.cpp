#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <random>

#include <nlohmann/json.hpp>

#include "archive/libarchive.h"
#include "lore/archive/archive.h"
#include "lore/doc/frontmatter.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/store/key.h"
#include "lore/text/utf8.h"

namespace lore::archive {
namespace {

constexpr const char* kNotLore =
    "use an archive made by 'lore export' (lore never writes such an entry)";
constexpr size_t kMaxManifest = 64 * 1024;

struct Manifest {
  std::string key;
  int64_t files = -1;
};

// What one archive entry is, once its path has been checked.
struct EntryPath {
  bool manifest = false;
  bool root = false;  // "store/" itself
  std::string rel;    // below store/, without a trailing '/'
};

Result<EntryPath> CheckPath(std::string_view path, const std::string& archive) {
  auto bad = [&](const std::string& why) {
    return Fail(ErrorCode::kCorrupt, "unsafe archive entry '" + std::string(path) + "' (" + why + ")",
                archive, 0, kNotLore);
  };
  if (!text::IsValidUtf8(path)) return bad("not UTF-8");
  for (unsigned char c : path) {
    if (c < 0x20 || c == 0x7f) return bad("control character");
  }
  if (path == "manifest.json") return EntryPath{true, false, {}};
  if (path == "store/" || path == "store") return EntryPath{false, true, {}};
  if (path.rfind("store/", 0) != 0) return bad("outside store/");
  std::string rel(path.substr(6));
  if (!rel.empty() && rel.back() == '/') rel.pop_back();
  if (rel.empty() || rel.front() == '/') return bad("absolute or empty path");
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    std::string_view part(rel.data() + start, end - start);
    if (part.empty()) return bad("empty path component");
    if (part == "." || part == "..") return bad("'.' or '..' component");
    if (part.front() == '.') return bad("hidden name");
    start = end + 1;
  }
  if (!IsTruth(rel)) return bad("not part of a store's truth");
  return EntryPath{false, false, rel};
}

Result<Manifest> ParseManifest(std::string_view text, const std::string& archive) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  auto bad = [&](const std::string& why) {
    return Fail(ErrorCode::kCorrupt, "bad manifest.json in archive (" + why + ")", archive, 0,
                kNotLore);
  };
  if (!j.is_object()) return bad("not a JSON object");
  if (j.value("format", "") != "lore-store-archive") return bad("format is not lore-store-archive");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1) {
    return bad("unsupported version; upgrade lore");
  }
  Manifest m;
  if (j.contains("key") && j["key"].is_string()) m.key = j["key"].get<std::string>();
  if (j.contains("files") && j["files"].is_number_integer()) m.files = j["files"].get<int64_t>();
  return m;
}

class Reader {
 public:
  Reader(const LibArchive* la, std::string name)
      : la_(la), name_(std::move(name)), a_(la->archive_read_new()) {}
  ~Reader() {
    if (a_) la_->archive_read_free(a_);
  }
  Status Open(int fd) {
    la_->archive_read_support_filter_gzip(a_);
    la_->archive_read_support_format_tar(a_);
    if (la_->archive_read_open_fd(a_, fd, 65536) != ARCHIVE_OK) return Failure();
    return Ok();
  }
  // The next entry, or nullptr at the end.
  Result<struct archive_entry*> Next() {
    struct archive_entry* e = nullptr;
    int rc = la_->archive_read_next_header(a_, &e);
    if (rc == ARCHIVE_EOF) return nullptr;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) return Failure();
    return e;
  }
  // Streams the current entry's data to `fd` (or into `*out` when fd < 0).
  Status Data(int fd, const std::string& path, std::string* out, size_t limit) {
    char buf[65536];
    for (;;) {
      la_ssize_t n = la_->archive_read_data(a_, buf, sizeof buf);
      if (n == 0) return Ok();
      if (n < 0) return Failure();
      if (fd >= 0) {
        LORE_TRY(fs::WriteAll(fd, std::string_view(buf, static_cast<size_t>(n)), path));
      } else {
        out->append(buf, static_cast<size_t>(n));
        if (out->size() > limit) {
          return Fail(ErrorCode::kCorrupt, "archive entry too large: " + path, name_, 0, kNotLore);
        }
      }
    }
  }
  const LibArchive* la() const { return la_; }

 private:
  tl::unexpected<Error> Failure() {
    const char* why = la_->archive_error_string(a_);
    return Fail(ErrorCode::kCorrupt,
                std::string("damaged or unreadable archive (") + (why ? why : "unknown") + ")",
                name_, 0, "export the store again; lore reads tar.gz archives made by 'lore export'");
  }
  const LibArchive* la_;
  std::string name_;
  struct archive* a_;
};

struct Unpacked {
  Manifest manifest;
  int64_t files = 0, bytes = 0;
  std::vector<std::pair<std::string, int64_t>> dir_times;  // folder -> mtime, in archive order
};

// Folder times last, deepest first, since writing inside a folder changes its
// time (checking the store writes .lore-raw.check into its root).
void RestoreDirTimes(const Unpacked& u) {
  for (auto it = u.dir_times.rbegin(); it != u.dir_times.rend(); ++it) {
    struct timespec times[2] = {{static_cast<time_t>(it->second), 0},
                                {static_cast<time_t>(it->second), 0}};
    ::utimensat(AT_FDCWD, it->first.c_str(), times, AT_SYMLINK_NOFOLLOW);
  }
}

Status WriteEntryFile(Reader& r, const std::string& dest, int64_t mtime, int64_t* bytes) {
  LORE_TRY(fs::MakeDirs(fs::Dirname(dest), 0700));
  if (fs::Exists(dest)) {
    return Fail(ErrorCode::kCorrupt, "archive holds the same path twice", dest, 0, kNotLore);
  }
  LORE_ASSIGN(fs::Fd fd, fs::Open(dest, O_WRONLY | O_CREAT | O_EXCL, 0600));
  ::fchmod(fd.get(), 0600);
  LORE_TRY(r.Data(fd.get(), dest, nullptr, 0));
  struct stat st;
  if (::fstat(fd.get(), &st) == 0) *bytes += st.st_size;
  if (::fsync(fd.get()) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot sync", dest));
  struct timespec times[2] = {{static_cast<time_t>(mtime), 0}, {static_cast<time_t>(mtime), 0}};
  ::futimens(fd.get(), times);
  return Ok();
}

// Unpacks every entry into `temp` (an empty directory), checking each first.
Result<Unpacked> Unpack(const LibArchive* la, const std::string& archive, const std::string& temp) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(archive, O_RDONLY));
  Reader r(la, archive);
  LORE_TRY(r.Open(fd.get()));
  Unpacked out;
  bool have_manifest = false;
  for (;;) {
    LORE_ASSIGN(struct archive_entry* e, r.Next());
    if (!e) break;
    const char* name = la->archive_entry_pathname(e);
    LORE_ASSIGN(EntryPath p, CheckPath(name ? name : "", archive));
    if (la->archive_entry_hardlink(e) || la->archive_entry_symlink(e)) {
      return Fail(ErrorCode::kCorrupt, std::string("link in archive: ") + name, archive, 0, kNotLore);
    }
    unsigned type = la->archive_entry_filetype(e);
    int64_t mtime = la->archive_entry_mtime(e);
    if (p.manifest) {
      if (type != AE_IFREG || have_manifest) {
        return Fail(ErrorCode::kCorrupt, "bad manifest.json entry", archive, 0, kNotLore);
      }
      std::string text;
      LORE_TRY(r.Data(-1, "manifest.json", &text, kMaxManifest));
      LORE_ASSIGN(out.manifest, ParseManifest(text, archive));
      have_manifest = true;
      continue;
    }
    std::string dest = p.root ? temp : fs::Join(temp, p.rel);
    if (type == AE_IFDIR) {
      LORE_TRY(fs::MakeDirs(dest, 0700));
      out.dir_times.emplace_back(dest, mtime);
    } else if (type == AE_IFREG && !p.root) {
      LORE_TRY(WriteEntryFile(r, dest, mtime, &out.bytes));
      ++out.files;
    } else {
      return Fail(ErrorCode::kCorrupt,
                  std::string("archive entry is not a regular file or directory: ") + name,
                  archive, 0, kNotLore);
    }
  }
  if (!have_manifest) {
    return Fail(ErrorCode::kCorrupt, "not a lore archive (no manifest.json)", archive, 0, kNotLore);
  }
  if (out.manifest.files >= 0 && out.manifest.files != out.files) {
    return Fail(ErrorCode::kCorrupt,
                "archive is incomplete (" + std::to_string(out.files) + " of " +
                    std::to_string(out.manifest.files) + " files)",
                archive, 0, "export the store again");
  }
  return out;
}

// True when `dir` holds nothing but what `lore ensure` creates: an empty
// raw.jsonl, okf/index.md without a body, empty folders, hidden bookkeeping.
Result<bool> IsEmptyStore(const std::string& dir) {
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(dir));
  for (const auto& e : entries) {
    if (!IsTruth(e.rel) || e.type == fs::EntryType::kDirectory) continue;
    if (e.rel == "raw.jsonl" && e.type == fs::EntryType::kFile && e.size == 0) continue;
    if (e.rel == "okf/index.md" && e.type == fs::EntryType::kFile) {
      std::string path = fs::Join(dir, e.rel);
      LORE_ASSIGN(std::string text, fs::ReadFile(path));
      auto split = doc::SplitFrontmatter(text, path);
      if (split && !doc::HasContent(split->body)) continue;
    }
    return false;
  }
  return true;
}

std::string HiddenSibling(const std::string& root, const std::string& key, const char* what) {
  std::random_device rd;
  return fs::Join(root, "." + key + "." + what + "." + std::to_string(::getpid()) + "." +
                            std::to_string(rd() & 0xffffff));
}

// Moves the unpacked `temp` to `dir`, replacing what is there (already judged).
Status Swap(const std::string& root, const std::string& key, const std::string& temp,
            const std::string& dir) {
  std::string old;
  if (fs::Exists(dir)) {
    old = HiddenSibling(root, key, "replaced");
    if (::rename(dir.c_str(), old.c_str()) != 0) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot move the old store aside", dir));
    }
  }
  if (::rename(temp.c_str(), dir.c_str()) != 0) {
    int err = errno;
    if (!old.empty()) (void)::rename(old.c_str(), dir.c_str());
    return tl::unexpected(fs::ErrnoError(err, "cannot move the imported store into place", dir));
  }
  LORE_TRY(fs::SyncDir(root));
  if (!old.empty()) LORE_TRY(fs::RemoveTree(old));
  return Ok();
}

// Checks the unpacked store as lore checks any store; errors name the entry.
Status CheckUnpacked(const std::string& root, const std::string& temp, const std::string& archive) {
  auto s = store::Store::AtDir(root, fs::Basename(temp)).Check();
  if (s) return Ok();
  Error e = s.error();
  if (e.path.rfind(temp, 0) == 0) e.path = "store" + e.path.substr(temp.size());
  e.what += " (in archive " + archive + ")";
  e.repair = "repair the store before exporting it, or fix that file in the archive";
  return tl::unexpected(e);
}

}  // namespace

Result<Summary> Import(const std::string& archive_path, const std::string& stores_root,
                       const std::string& key_arg, Overwrite overwrite) {
  LORE_ASSIGN(const LibArchive* la, Load());
  std::string archive = fs::Absolute(archive_path);
  LORE_TRY(fs::RefuseSymlink(fs::Dirname(stores_root), "parent of the stores root"));
  LORE_TRY(fs::MakeDirs(stores_root, 0700));
  std::string temp = HiddenSibling(stores_root, "import", "new");
  if (::mkdir(temp.c_str(), 0700) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot create directory", temp));
  }
  auto result = [&]() -> Result<Summary> {
    LORE_ASSIGN(Unpacked u, Unpack(la, archive, temp));
    std::string key = key_arg.empty() ? u.manifest.key : key_arg;
    auto checked = store::KeyFromIdentity(key);
    if (key.empty() || !checked || *checked != key) {
      return Fail(ErrorCode::kInvalidInput, "archive names no valid store key ('" + key + "')",
                  archive, 0, "name the target store with --repo <repo>");
    }
    LORE_TRY(CheckUnpacked(stores_root, temp, archive));
    RestoreDirTimes(u);
    std::string dir = fs::Join(stores_root, key);
    LORE_TRY(fs::RefuseSymlink(dir, "store directory"));
    if (fs::Exists(dir) && overwrite == Overwrite::kRefuse) {
      LORE_ASSIGN(bool empty, IsEmptyStore(dir));
      if (!empty) {
        return Fail(ErrorCode::kExists, "store is not empty; import refused", dir, 0,
                    "import into another store with --repo <repo>, or pass --force to replace "
                    "this one (its current contents are lost)");
      }
    }
    LORE_TRY(Swap(stores_root, key, temp, dir));
    return Summary{key, dir, u.files, u.bytes};
  }();
  if (!result) (void)fs::RemoveTree(temp);
  return result;
}

}  // namespace lore::archive
