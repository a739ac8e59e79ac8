#include "lore/log/checked_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>

#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/log/jsonl.h"

namespace lore::log {
namespace {

constexpr const char* kCheckMagic = "lore-log-check-v1";

// What lore knows about a log it last saw valid.
struct Identity {
  uint64_t dev = 0, ino = 0, size = 0;
  int64_t mtime_ns = 0, ctime_ns = 0;
  int64_t lines = 0;
  bool ends_with_newline = true;

  bool SameFile(const Identity& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns &&
           ctime_ns == o.ctime_ns;
  }
};

Identity FromStat(const struct stat& st) {
  Identity id;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.size = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  id.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return id;
}

uint64_t Checksum(const Identity& id) {
  uint64_t h = 1469598103934665603ULL;
  for (uint64_t v : {id.dev, id.ino, id.size, static_cast<uint64_t>(id.mtime_ns),
                     static_cast<uint64_t>(id.ctime_ns), static_cast<uint64_t>(id.lines),
                     static_cast<uint64_t>(id.ends_with_newline)}) {
    h = (h ^ v) * 1099511628211ULL;
  }
  return h;
}

// A missing, unreadable or damaged side file simply means "validate again".
bool ReadIdentity(const std::string& path, Identity* id) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  fs::Fd guard(fd);
  char buf[256];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  if (n <= 0) return false;
  buf[n] = '\0';
  char magic[32];
  unsigned long long dev, ino, size, sum;
  long long mtime, ctime, lines;
  int nl;
  if (std::sscanf(buf, "%31s %llu %llu %llu %lld %lld %lld %d %llu", magic, &dev, &ino, &size,
                  &mtime, &ctime, &lines, &nl, &sum) != 9) {
    return false;
  }
  if (std::string_view(magic) != kCheckMagic) return false;
  Identity r{dev, ino, size, mtime, ctime, lines, nl != 0};
  if (Checksum(r) != sum) return false;
  *id = r;
  return true;
}

// Best effort: failing to remember only costs a re-validation next time.
// Written to a temporary file and renamed, so a reader never sees half of it.
void WriteIdentity(const std::string& path, const Identity& id) {
  char buf[256];
  int len = std::snprintf(buf, sizeof buf, "%s %llu %llu %llu %lld %lld %lld %d %llu\n",
                          kCheckMagic, static_cast<unsigned long long>(id.dev),
                          static_cast<unsigned long long>(id.ino),
                          static_cast<unsigned long long>(id.size),
                          static_cast<long long>(id.mtime_ns), static_cast<long long>(id.ctime_ns),
                          static_cast<long long>(id.lines), id.ends_with_newline ? 1 : 0,
                          static_cast<unsigned long long>(Checksum(id)));
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  bool ok = ::write(fd, buf, static_cast<size_t>(len)) == len;
  ::close(fd);
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) ::unlink(temp.c_str());
}

Error BadLine(const LogPaths& paths, const LineProblem& p) {
  return Error{ErrorCode::kCorrupt, "malformed line (" + p.what + ")", paths.log, p.line,
               paths.bad_line_repair};
}

// Brings `*known` up to date with the open, locked log `fd`: trusts the side
// file when the log is unchanged, else reads and checks the whole log.
Status Refresh(const LogPaths& paths, int fd, Identity* known, bool* revalidated) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", paths.log));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "not a regular file", paths.log, 0,
                "move it away and restore the log from a backup");
  }
  Identity now = FromStat(st);
  Identity cached;
  if (ReadIdentity(paths.check, &cached) && cached.SameFile(now)) {
    *known = cached;
    *revalidated = false;
    return Ok();
  }
  if (::lseek(fd, 0, SEEK_SET) < 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot seek", paths.log));
  }
  LORE_ASSIGN(std::string data, fs::ReadAll(fd, paths.log));
  ScanResult scan = ScanObjects(data, 1);
  if (!scan.problems.empty()) return tl::unexpected(BadLine(paths, scan.problems.front()));
  now.lines = scan.lines;
  now.ends_with_newline = scan.ends_with_newline;
  *known = now;
  *revalidated = true;
  WriteIdentity(paths.check, now);
  return Ok();
}

}  // namespace

Status Validate(const LogPaths& paths) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(paths.log, O_RDONLY));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kShared, paths.log));
  Identity known;
  bool revalidated = false;
  return Refresh(paths, fd.get(), &known, &revalidated);
}

Result<AppendResult> Append(const LogPaths& paths, std::string_view line) {
  if (line.find('\n') != std::string_view::npos) {
    return Fail(ErrorCode::kInternal, "a log line may not contain a newline", paths.log);
  }
  LORE_ASSIGN(fs::Fd fd, fs::Open(paths.log, O_RDWR | O_APPEND));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, paths.log));
  Identity known;
  AppendResult result;
  LORE_TRY(Refresh(paths, fd.get(), &known, &result.revalidated));

  std::string buf;
  buf.reserve(line.size() + 2);
  if (!known.ends_with_newline) buf += '\n';
  buf.append(line);
  buf += '\n';
  // One write(2) of the whole line: O_APPEND makes it land at the end as a unit.
  ssize_t n;
  do {
    n = ::write(fd.get(), buf.data(), buf.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot append to", paths.log));
  if (static_cast<size_t>(n) != buf.size()) {
    // A short write (disk full): cut the partial line off again so the log stays whole.
    if (::ftruncate(fd.get(), static_cast<off_t>(known.size)) != 0) {
      return Fail(ErrorCode::kIo, "short write left a partial last line in", paths.log, 0,
                  "free disk space, then remove the cut-off last line");
    }
    return Fail(ErrorCode::kIo, "short write (disk full?) to", paths.log, 0,
                "free disk space and retry");
  }
  if (::fdatasync(fd.get()) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot sync", paths.log));
  }
  struct stat st;
  if (::fstat(fd.get(), &st) == 0) {
    Identity after = FromStat(st);
    after.lines = known.lines + 1;
    after.ends_with_newline = true;
    if (after.size == known.size + buf.size()) WriteIdentity(paths.check, after);
    result.line = after.lines;
  }
  return result;
}

std::vector<Error> CheckAll(const LogPaths& paths, size_t max_problems) {
  std::vector<Error> out;
  auto fd = fs::Open(paths.log, O_RDONLY);
  if (!fd) return {fd.error()};
  if (auto s = fs::LockFd(fd->get(), fs::LockMode::kShared, paths.log); !s) return {s.error()};
  auto data = fs::ReadAll(fd->get(), paths.log);
  if (!data) return {data.error()};
  ScanResult scan = ScanObjects(*data, max_problems);
  for (const auto& p : scan.problems) out.push_back(BadLine(paths, p));
  return out;
}

}  // namespace lore::log
