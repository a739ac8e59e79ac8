#include "lore/log/checked_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "log/log_identity.h"
#include "log/stream_scan.h"
#include "log/torn_tail.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/log/jsonl.h"

namespace lore::log {
namespace {

// A bad line of `scan`: the last line without its newline is a torn append
// (torn_tail.h), any other one is malformed.
Error BadLine(const LogPaths& paths, const ScanResult& scan, const LineProblem& p) {
  if (p.line == scan.lines && !scan.ends_with_newline) return TornTailError(paths.log, p.line);
  return Error{ErrorCode::kCorrupt, "malformed line (" + p.what + ")", paths.log, p.line,
               paths.bad_line_repair};
}

// Brings `*known` up to date with the open, locked log `fd`: trusts what was
// remembered when the log is unchanged, else streams and checks all of it.
Status Refresh(const LogPaths& paths, int fd, Identity* known, bool* revalidated) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", paths.log));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "not a regular file", paths.log, 0,
                "move it away and restore the log from a backup");
  }
  Identity now = IdentityOf(st);
  if (auto cached = Recall(fd, paths, now)) {
    *known = *cached;
    *revalidated = false;
    return Ok();
  }
  // Only the bytes this identity describes: a foreign write landing during
  // the scan changes the identity and is checked next time.
  LORE_ASSIGN(ScanResult scan, ScanFd(fd, now.size, paths.log, 1));
  if (!scan.problems.empty()) return tl::unexpected(BadLine(paths, scan, scan.problems.front()));
  now.lines = scan.lines;
  now.ends_with_newline = scan.ends_with_newline;
  *known = now;
  *revalidated = true;
  Remember(fd, paths, now);
  if (!paths.legacy_check.empty()) ::unlink(paths.legacy_check.c_str());
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
  return AppendLines(paths, {std::string(line)});
}

Result<AppendResult> AppendLines(const LogPaths& paths, const std::vector<std::string>& lines) {
  size_t bytes = 2;
  for (const auto& line : lines) {
    if (line.find('\n') != std::string::npos) {
      return Fail(ErrorCode::kInternal, "a log line may not contain a newline", paths.log);
    }
    bytes += line.size() + 1;
  }
  LORE_ASSIGN(fs::Fd fd, fs::Open(paths.log, O_RDWR | O_APPEND));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, paths.log));
  Identity known;
  AppendResult result;
  LORE_TRY(Refresh(paths, fd.get(), &known, &result.revalidated));
  if (lines.empty()) {
    result.line = known.lines;
    return result;
  }

  std::string buf;
  buf.reserve(bytes);
  if (!known.ends_with_newline) buf += '\n';
  for (const auto& line : lines) {
    buf.append(line);
    buf += '\n';
  }
  // One write(2) of all the lines: O_APPEND makes them land at the end as a unit.
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
    Identity after = IdentityOf(st);
    after.lines = known.lines + static_cast<int64_t>(lines.size());
    after.ends_with_newline = true;
    if (after.size == known.size + buf.size()) Remember(fd.get(), paths, after);
    result.line = after.lines;
  }
  return result;
}

std::vector<Error> CheckAll(const LogPaths& paths, size_t max_problems) {
  std::vector<Error> out;
  auto fd = fs::Open(paths.log, O_RDONLY);
  if (!fd) return {fd.error()};
  if (auto s = fs::LockFd(fd->get(), fs::LockMode::kShared, paths.log); !s) return {s.error()};
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) return {fs::ErrnoError(errno, "cannot stat", paths.log)};
  auto scan = ScanFd(fd->get(), static_cast<uint64_t>(st.st_size), paths.log, max_problems);
  if (!scan) return {scan.error()};
  for (const auto& p : scan->problems) out.push_back(BadLine(paths, *scan, p));
  return out;
}

}  // namespace lore::log
