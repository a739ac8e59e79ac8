#include "proposals/append_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "lore/fs/file_lock.h"
#include "lore/json/reader.h"
#include "lore/log/line_stream.h"

namespace lore::proposals {

Result<AppendFile> AppendFile::Open(const std::string& path, std::chrono::milliseconds timeout) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_WRONLY | O_APPEND | O_CREAT, 0600));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "not a regular file", path, 0, "move it away");
  }
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, path, timeout, fs::Basename(path)));
  AppendFile f(path, std::move(fd));
  if (::fstat(f.fd(), &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  f.initial_size_ = st.st_size;
  if (st.st_size > 0) LORE_TRY(f.MendTail());
  return f;
}

// The file does not end with '\n' after a writer died in its append (a
// write(2) that crosses a page boundary can stop half-way when the process
// is killed) or after someone else wrote a last line without one. A last
// line that is whole JSON keeps its place (our append starts with '\n'; the
// prefix of an object never is); anything else is the torn end of an append
// nobody acknowledged, and is cut off under our lock, so that no append
// leaves a broken line.
Status AppendFile::MendTail() {
  // Reading needs a readable descriptor; O_APPEND ones are write-only.
  LORE_ASSIGN(fs::Fd rfd, fs::Open(path_, O_RDONLY));
  const uint64_t size = static_cast<uint64_t>(initial_size_);
  char last = '\n';
  LORE_ASSIGN(size_t got, fs::ReadAt(rfd.get(), &last, 1, size - 1, path_));
  if (got != 1 || last == '\n') return Ok();
  const uint64_t window = std::min<uint64_t>(size, log::kMaxLineBytes + 1);
  std::string tail(static_cast<size_t>(window), '\0');
  LORE_ASSIGN(got, fs::ReadAt(rfd.get(), tail.data(), tail.size(), size - window, path_));
  tail.resize(got);
  const size_t nl = tail.rfind('\n');
  const uint64_t line_start = nl == std::string::npos ? size - window : size - window + nl + 1;
  std::string_view line = std::string_view(tail).substr(nl == std::string::npos ? 0 : nl + 1);
  auto whole = json::Parse(line, json::ForeignLogLine());
  if ((nl != std::string::npos || window == size) && whole) {
    needs_newline_ = true;
    return Ok();
  }
  if (nl == std::string::npos && window < size) {
    needs_newline_ = true;  // a last line too long to judge: leave it, start ours apart
    return Ok();
  }
  if (::ftruncate(fd_.get(), static_cast<off_t>(line_start)) != 0 || ::fdatasync(fd_.get()) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot cut the torn last line of", path_));
  }
  initial_size_ = static_cast<int64_t>(line_start);
  return Ok();
}

Status AppendFile::Append(std::string_view bytes) {
  if (bytes.empty()) return Ok();
  std::string joined;
  if (needs_newline_) {
    joined = "\n" + std::string(bytes);
    bytes = joined;
  }
  struct stat st;
  if (::fstat(fd_.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path_));
  if (auto s = fs::WriteAll(fd_.get(), bytes, path_); !s) {
    // A short write (disk full) left part of a line: cut it off again (the
    // lock is ours) so that the file stays whole lines.
    if (::ftruncate(fd_.get(), st.st_size) != 0) {
      return Fail(ErrorCode::kIo, "a failed write left a partial last line in", path_, 0,
                  "free disk space, then remove the cut-off last line");
    }
    return s;
  }
  needs_newline_ = false;
  return Ok();
}

Status AppendFile::Sync() {
  if (::fdatasync(fd_.get()) != 0) {
    const int err = errno;
    // What this object appended is not known to be on disk: take it back (the
    // lock is still ours), so that a failure means nothing was written and a
    // retry does not write the same lines twice.
    (void)::ftruncate(fd_.get(), initial_size_);
    return tl::unexpected(fs::ErrnoError(err, "cannot sync", path_));
  }
  return Ok();
}

Status AppendAndSync(const std::string& path, std::string_view bytes) {
  LORE_ASSIGN(AppendFile f, AppendFile::Open(path));
  LORE_TRY(f.Append(bytes));
  return f.Sync();
}

}  // namespace lore::proposals
