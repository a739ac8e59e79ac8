#include "archive/unpack.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>

#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/text/utf8.h"

namespace lore::archive {
namespace {

constexpr const char* kNotLore =
    "use an archive made by 'lore export' (lore never writes such an entry)";
constexpr const char* kLimitRepair =
    "lore refuses it as a possible decompression bomb; import only archives made by 'lore "
    "export' (the limits are in docs/agents.md)";
constexpr size_t kMaxManifest = 64 * 1024;

}  // namespace

Result<EntryPath> CheckPath(std::string_view path, const std::string& archive) {
  auto bad = [&](const std::string& why) {
    return Fail(ErrorCode::kCorrupt,
                "unsafe archive entry '" + std::string(path) + "' (" + why + ")", archive, 0,
                kNotLore);
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
  if (IsMachineLocal(rel)) return EntryPath{false, false, rel, true};
  if (!IsTruth(rel)) return bad("not part of a store's truth");
  return EntryPath{false, false, rel};
}

namespace {

std::string Size(int64_t bytes) {
  if (bytes >= (int64_t{1} << 30) && bytes % (int64_t{1} << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (int64_t{1} << 20) && bytes % (int64_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Counts what is unpacked against the limits.
class Budget {
 public:
  Budget(const ImportLimits& limits, int64_t archive_bytes, std::string archive)
      : limits_(limits), archive_bytes_(archive_bytes), archive_(std::move(archive)) {}

  Status Entry() {
    if (++entries_ <= limits_.max_entries) return Ok();
    return Over("archive has too many entries (more than " + std::to_string(limits_.max_entries) +
                ")");
  }
  // `entry` now holds `entry_bytes` (after `more` were added).
  Status Bytes(const std::string& name, int64_t entry_bytes, int64_t more) {
    total_ += more;
    if (entry_bytes > limits_.max_entry_bytes) {
      return Over("archive entry " + name + " is too large (more than " +
                  Size(limits_.max_entry_bytes) + ")");
    }
    if (total_ > limits_.max_total_bytes) {
      return Over("archive unpacks to too much (more than " + Size(limits_.max_total_bytes) + ")");
    }
    if (total_ > limits_.ratio_floor_bytes &&
        total_ > limits_.max_ratio * std::max<int64_t>(archive_bytes_, 1)) {
      return Over("archive expands too much (more than " + std::to_string(limits_.max_ratio) +
                  " times its " + std::to_string(archive_bytes_) + " bytes)");
    }
    return Ok();
  }

 private:
  tl::unexpected<Error> Over(std::string what) {
    return Fail(ErrorCode::kInvalidInput, std::move(what), archive_, 0, kLimitRepair);
  }
  const ImportLimits& limits_;
  int64_t archive_bytes_;
  std::string archive_;
  int64_t entries_ = 0, total_ = 0;
};

class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)), a_(::archive_read_new()) {}
  ~Reader() {
    if (a_) ::archive_read_free(a_);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  Status Open(int fd) {
    ::archive_read_support_filter_gzip(a_);
    ::archive_read_support_format_tar(a_);
    if (::archive_read_open_fd(a_, fd, 65536) != ARCHIVE_OK) return Failure();
    return Ok();
  }
  // The next entry, or nullptr at the end.
  Result<struct archive_entry*> Next() {
    struct archive_entry* e = nullptr;
    int rc = ::archive_read_next_header(a_, &e);
    if (rc == ARCHIVE_EOF) return nullptr;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) return Failure();
    return e;
  }
  // Streams the current entry's data to `fd` (or into `*out` when fd < 0),
  // counting it against `budget` as it comes.
  Status Data(int fd, const std::string& name, const std::string& path, std::string* out,
              Budget& budget) {
    char buf[65536];
    int64_t so_far = 0;
    for (;;) {
      la_ssize_t n = ::archive_read_data(a_, buf, sizeof buf);
      if (n == 0) return Ok();
      if (n < 0) return Failure();
      so_far += n;
      LORE_TRY(budget.Bytes(name, so_far, n));
      std::string_view data(buf, static_cast<size_t>(n));
      if (fd >= 0) {
        LORE_TRY(fs::WriteAll(fd, data, path));
      } else {
        out->append(data);
      }
    }
  }

 private:
  tl::unexpected<Error> Failure() {
    const char* why = ::archive_error_string(a_);
    return Fail(ErrorCode::kCorrupt,
                std::string("damaged or unreadable archive (") + (why ? why : "unknown") + ")",
                name_, 0,
                "export the store again; lore reads tar.gz archives made by 'lore export'");
  }
  std::string name_;
  struct archive* a_;
};

Status WriteEntryFile(Reader& r, Budget& budget, const std::string& name, const std::string& dest,
                      int64_t mtime, int64_t* bytes) {
  LORE_TRY(fs::MakeDirs(fs::Dirname(dest), 0700));
  if (fs::Exists(dest)) {
    return Fail(ErrorCode::kCorrupt, "archive holds the same path twice", dest, 0, kNotLore);
  }
  LORE_ASSIGN(fs::Fd fd, fs::Open(dest, O_WRONLY | O_CREAT | O_EXCL, 0600));
  ::fchmod(fd.get(), 0600);
  LORE_TRY(r.Data(fd.get(), name, dest, nullptr, budget));
  struct stat st;
  if (::fstat(fd.get(), &st) == 0) *bytes += st.st_size;
  if (::fsync(fd.get()) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot sync", dest));
  struct timespec times[2] = {{static_cast<time_t>(mtime), 0}, {static_cast<time_t>(mtime), 0}};
  ::futimens(fd.get(), times);
  return Ok();
}

}  // namespace

Result<Manifest> ParseManifest(std::string_view text, const std::string& archive) {
  auto bad = [&](const std::string& why) {
    return Fail(ErrorCode::kCorrupt, "bad manifest.json in archive (" + why + ")", archive, 0,
                kNotLore);
  };
  json::Limits limits;
  limits.max_bytes = size_t{64} << 10;
  limits.max_depth = 8;
  auto parsed = json::Parse(text, limits);
  if (!parsed) return bad(parsed.error().what);
  const SortedJson& j = *parsed;
  if (!j.is_object()) return bad("not a JSON object");
  auto format = j.find("format");
  if (format == j.end() || !format->is_string() ||
      format->get_ref<const std::string&>() != "lore-store-archive") {
    return bad("format is not lore-store-archive");
  }
  auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer() ||
      (version->is_number_unsigned() ? version->get<uint64_t>() != 1
                                     : version->get<int64_t>() != 1)) {
    return bad("unsupported version; upgrade lore");
  }
  Manifest m;
  if (auto key = j.find("key"); key != j.end() && key->is_string()) {
    m.key = key->get<std::string>();
  }
  if (auto files = j.find("files"); files != j.end() && files->is_number_unsigned() &&
                                    files->get<uint64_t>() <= uint64_t{1} << 62) {
    m.files = static_cast<int64_t>(files->get<uint64_t>());
  }
  return m;
}

void RestoreDirTimes(const Unpacked& u) {
  for (auto it = u.dir_times.rbegin(); it != u.dir_times.rend(); ++it) {
    struct timespec times[2] = {{static_cast<time_t>(it->second), 0},
                                {static_cast<time_t>(it->second), 0}};
    ::utimensat(AT_FDCWD, it->first.c_str(), times, AT_SYMLINK_NOFOLLOW);
  }
}

namespace {

// An entry's path and type, checked: a regular file, a folder or the
// manifest, never a link or a device.
Result<EntryPath> CheckEntry(struct archive_entry* e, const std::string& archive) {
  const char* raw_name = ::archive_entry_pathname(e);
  std::string name = raw_name ? raw_name : "";
  LORE_ASSIGN(EntryPath p, CheckPath(name, archive));
  if (::archive_entry_hardlink(e) || ::archive_entry_symlink(e)) {
    return Fail(ErrorCode::kCorrupt, "link in archive: " + name, archive, 0, kNotLore);
  }
  const unsigned type = ::archive_entry_filetype(e);
  const bool ok = p.manifest ? type == AE_IFREG : type == AE_IFDIR || (type == AE_IFREG && !p.root);
  if (!ok) {
    return Fail(ErrorCode::kCorrupt,
                p.manifest ? "bad manifest.json entry"
                           : "archive entry is not a regular file or directory: " + name,
                archive, 0, kNotLore);
  }
  return p;
}

// The archive's size for the ratio limit (0 when unknown).
int64_t SizeOf(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<int64_t>(st.st_size) : 0;
}

// The first pass: every header read (the data skipped), every entry checked,
// its count and the sizes the headers declare held against the limits, so
// that an archive past a limit is refused before anything is written.
Status Survey(int fd, const std::string& archive, const ImportLimits& limits) {
  Budget budget(limits, SizeOf(fd), archive);
  Reader r(archive);
  LORE_TRY(r.Open(fd));
  for (;;) {
    LORE_ASSIGN(struct archive_entry * e, r.Next());
    if (!e) return Ok();
    LORE_TRY(budget.Entry());
    LORE_TRY(CheckEntry(e, archive));
    if (::archive_entry_size_is_set(e)) {
      const int64_t size = ::archive_entry_size(e);
      LORE_TRY(budget.Bytes(::archive_entry_pathname(e), size, size));
    }
  }
}

}  // namespace

Result<Unpacked> Unpack(const std::string& archive, const std::string& temp,
                        const ImportLimits& limits) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(archive, O_RDONLY));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", archive));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kInvalidInput, "the archive is not a regular file", archive, 0,
                "save the archive to a file and import that file");
  }
  LORE_TRY(Survey(fd.get(), archive, limits));
  if (::lseek(fd.get(), 0, SEEK_SET) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot seek", archive));
  // The second pass writes, checking everything again as it streams.
  Budget budget(limits, static_cast<int64_t>(st.st_size), archive);
  Reader r(archive);
  LORE_TRY(r.Open(fd.get()));
  Unpacked out;
  bool have_manifest = false;
  int64_t left_out = 0;  // files an older lore exported that stay behind (IsMachineLocal)
  for (;;) {
    LORE_ASSIGN(struct archive_entry * e, r.Next());
    if (!e) break;
    LORE_TRY(budget.Entry());
    LORE_ASSIGN(EntryPath p, CheckEntry(e, archive));
    const std::string name = ::archive_entry_pathname(e);
    const unsigned type = ::archive_entry_filetype(e);
    const int64_t mtime = ::archive_entry_mtime(e);
    // A declared size over the limit is refused before any byte is read.
    if (::archive_entry_size_is_set(e)) {
      LORE_TRY(budget.Bytes(name, ::archive_entry_size(e), 0));
    }
    if (p.manifest) {
      if (have_manifest) {
        return Fail(ErrorCode::kCorrupt, "bad manifest.json entry", archive, 0, kNotLore);
      }
      if (::archive_entry_size(e) > static_cast<int64_t>(kMaxManifest)) {
        return Fail(ErrorCode::kCorrupt, "archive entry too large: manifest.json", archive, 0,
                    kNotLore);
      }
      std::string text;
      LORE_TRY(r.Data(-1, name, "manifest.json", &text, budget));
      if (text.size() > kMaxManifest) {
        return Fail(ErrorCode::kCorrupt, "archive entry too large: manifest.json", archive, 0,
                    kNotLore);
      }
      LORE_ASSIGN(out.manifest, ParseManifest(text, archive));
      have_manifest = true;
      continue;
    }
    if (p.skip) {
      left_out += type == AE_IFREG;
      continue;
    }
    std::string dest = p.root ? temp : fs::Join(temp, p.rel);
    if (type == AE_IFDIR) {
      LORE_TRY(fs::MakeDirs(dest, 0700));
      out.dir_times.emplace_back(dest, mtime);
    } else {
      LORE_TRY(WriteEntryFile(r, budget, name, dest, mtime, &out.bytes));
      ++out.files;
    }
  }
  if (!have_manifest) {
    return Fail(ErrorCode::kCorrupt, "not a lore archive (no manifest.json)", archive, 0, kNotLore);
  }
  if (out.manifest.files >= 0 && out.manifest.files != out.files + left_out) {
    return Fail(ErrorCode::kCorrupt,
                "archive is incomplete (" + std::to_string(out.files + left_out) + " of " +
                    std::to_string(out.manifest.files) + " files)",
                archive, 0, "export the store again");
  }
  return out;
}

}  // namespace lore::archive
