#include "proposals/archive_once.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <optional>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "proposals/append_file.h"
#include "redact/json.h"
#include "store/quarantine.h"

namespace lore::proposals {
namespace {

constexpr const char* kMarker = ".proposals-archive.pending";

OnceFiles ReviewFiles(const Paths& p) { return {p.queue, p.archive, fs::Join(p.dir, kMarker)}; }

// "<archive size> <chunk length> <queue dev> <queue ino> <offset>:<length>...\n"
struct Marker {
  uint64_t archive_size = 0, chunk = 0, dev = 0, ino = 0;
  std::vector<Span> spans;
};

bool ReadNumber(std::string_view& s, uint64_t* out, char end) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (ec != std::errc() || p == s.data() + s.size() || *p != end) return false;
  s.remove_prefix(static_cast<size_t>(p - s.data()) + 1);
  return true;
}

std::optional<Marker> ParseMarker(std::string_view s) {
  Marker m;
  if (!ReadNumber(s, &m.archive_size, ' ') || !ReadNumber(s, &m.chunk, ' ') ||
      !ReadNumber(s, &m.dev, ' ') || !ReadNumber(s, &m.ino, s.find(' ') == s.npos ? '\n' : ' ')) {
    return std::nullopt;
  }
  while (!s.empty()) {
    uint64_t off = 0, len = 0;
    if (!ReadNumber(s, &off, ':') || !ReadNumber(s, &len, s.find(' ') == s.npos ? '\n' : ' '))
      return std::nullopt;
    m.spans.push_back(Span{0, static_cast<size_t>(off), static_cast<size_t>(len)});
  }
  return m;
}

std::string RenderMarker(const Marker& m) {
  std::string out = std::to_string(m.archive_size) + " " + std::to_string(m.chunk) + " " +
                    std::to_string(m.dev) + " " + std::to_string(m.ino);
  for (const Span& s : m.spans)
    out += " " + std::to_string(s.offset) + ":" + std::to_string(s.length);
  return out + "\n";
}

// The archive chunk the spans of `bytes` make; nullopt when a span is outside.
// Each line is archived as redact::CleanJsonLine leaves it: the bytes
// themselves unless it holds a private span or a secret (a queue line
// written by another program).
std::optional<std::string> Chunk(std::string_view bytes, const std::vector<Span>& spans) {
  std::string out;
  for (const Span& s : spans) {
    if (s.offset > bytes.size() || s.length > bytes.size() - s.offset) return std::nullopt;
    std::string_view text = bytes.substr(s.offset, s.length);
    const bool newline = !text.empty() && text.back() == '\n';
    if (newline) text.remove_suffix(1);
    out += redact::CleanJsonLine(text);
    out += '\n';
  }
  return out;
}

Result<struct stat> StatPath(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return st;  // st_ino 0: none
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  }
  return st;
}

}  // namespace

Result<std::set<size_t>> AlreadyArchived(const Paths& paths, const QueueScan& queue) {
  LORE_ASSIGN(std::set<size_t> out, AlreadyArchived(ReviewFiles(paths), queue.bytes));
  LORE_TRY(ArchiveDone(paths));
  return out;
}

Result<int64_t> ArchiveOnce(const Paths& paths, const QueueScan& queue,
                            const std::vector<Span>& spans) {
  return ArchiveOnce(ReviewFiles(paths), queue.bytes, spans);
}

Status ArchiveDone(const Paths& paths) { return ArchiveDone(ReviewFiles(paths)); }

Result<std::set<size_t>> AlreadyArchived(const OnceFiles& paths, std::string_view bytes) {
  std::set<size_t> out;
  const std::string& marker_path = paths.marker;
  auto text = fs::ReadFile(marker_path, fs::Kind::kState);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return out;
    return tl::unexpected(text.error());
  }
  auto m = ParseMarker(*text);
  LORE_ASSIGN(struct stat q, StatPath(paths.source));
  std::optional<std::string> chunk;
  if (m && q.st_ino == m->ino && static_cast<uint64_t>(q.st_dev) == m->dev) {
    chunk = Chunk(bytes, m->spans);
  }
  if (chunk && chunk->size() == m->chunk) {
    // The queue was not replaced: what did the archive receive?
    LORE_ASSIGN(fs::Fd fd, fs::Open(paths.archive, O_RDWR | O_CREAT, 0600));
    struct stat a;
    if (::fstat(fd.get(), &a) != 0)
      return tl::unexpected(fs::ErrnoError(errno, "cannot stat", paths.archive));
    uint64_t size = static_cast<uint64_t>(a.st_size);
    uint64_t have =
        size > m->archive_size ? std::min<uint64_t>(size - m->archive_size, m->chunk) : 0;
    std::string tail(have, '\0');
    if (have > 0 && ::pread(fd.get(), tail.data(), have, static_cast<off_t>(m->archive_size)) !=
                        static_cast<ssize_t>(have)) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot read", paths.archive));
    }
    bool prefix = chunk->compare(0, have, tail) == 0;
    if (prefix && have == m->chunk) {
      for (const Span& s : m->spans) out.insert(s.offset);
    } else if (prefix && have > 0 && size == m->archive_size + have) {
      // Torn append: moved into the store's quarantine/ (never deleted), the
      // chunk is appended whole again.
      const uint64_t keep = m->archive_size;
      auto torn = [keep](int, const std::string&) -> Result<std::optional<uint64_t>> {
        return std::optional<uint64_t>(keep);
      };
      LORE_TRY(store::QuarantineTornTailOf(fs::Dirname(paths.archive), fs::Basename(paths.archive),
                                           fd.get(), torn));
    }
  }
  if (out.empty()) LORE_TRY(ArchiveDone(paths));  // the marker does not apply
  return out;
}

Result<int64_t> ArchiveOnce(const OnceFiles& paths, std::string_view bytes,
                            const std::vector<Span>& spans) {
  auto chunk = Chunk(bytes, spans);
  if (!chunk || chunk->empty()) return 0;
  LORE_ASSIGN(struct stat q, StatPath(paths.source));
  LORE_ASSIGN(AppendFile archive, AppendFile::Open(paths.archive));
  // Where the chunk will start (after the '\n' that ends a cut-off line).
  uint64_t start =
      static_cast<uint64_t>(archive.initial_size()) + (archive.needs_newline() ? 1 : 0);
  Marker m{start, chunk->size(), static_cast<uint64_t>(q.st_dev), static_cast<uint64_t>(q.st_ino),
           spans};
  LORE_TRY(fs::WriteFileAtomic(paths.marker, RenderMarker(m)));
  LORE_TRY(archive.Append(*chunk));
  LORE_TRY(archive.Sync());
  return static_cast<int64_t>(chunk->size());
}

Status ArchiveDone(const OnceFiles& paths) {
  const std::string& path = paths.marker;
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot remove", path));
  }
  return Ok();
}

}  // namespace lore::proposals
