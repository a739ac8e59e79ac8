#include "proposals/append_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "lore/fs/file_lock.h"
#include "lore/json/reader.h"
#include "lore/log/line_stream.h"
#include "store/quarantine.h"

namespace lore::proposals {

Result<AppendFile> AppendFile::Open(const std::string& path, std::chrono::milliseconds timeout,
                                    const std::string& store_dir) {
  // Read-write: mending a torn tail reads it before moving it aside.
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDWR | O_APPEND | O_CREAT, 0600));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "not a regular file", path, 0, "move it away");
  }
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, path, timeout, fs::Basename(path)));
  AppendFile f(path, std::move(fd));
  f.store_dir_ = store_dir.empty() ? fs::Dirname(path) : store_dir;
  if (::fstat(f.fd(), &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  f.initial_size_ = st.st_size;
  if (st.st_size > 0) LORE_TRY(f.MendTail());
  return f;
}

namespace {

// Where the complete part of the open file `fd` ends (a log.h CutRule): the
// file does not end with '\n' after a writer died in its append (a write(2)
// that crosses a page boundary can stop half-way when the process is
// killed) or after someone else wrote a last line without one. A last line
// that is whole JSON keeps its place (our append starts with '\n'; the
// prefix of an object never is), and so does one too long to judge; anything
// else is the torn end of an append nobody acknowledged.
Result<std::optional<uint64_t>> TornAppend(int fd, const std::string& path) {
  LORE_ASSIGN(const std::optional<uint64_t> unterminated, fs::UnterminatedSize(fd, path));
  if (!unterminated) return std::optional<uint64_t>();
  const uint64_t size = *unterminated;
  const uint64_t window = std::min<uint64_t>(size, log::kMaxLineBytes + 1);
  std::string tail(static_cast<size_t>(window), '\0');
  LORE_ASSIGN(const size_t got, fs::ReadAt(fd, tail.data(), tail.size(), size - window, path));
  tail.resize(got);
  const size_t nl = tail.rfind('\n');
  if (nl == std::string::npos && window < size) return std::optional<uint64_t>();  // too long
  const uint64_t line_start = nl == std::string::npos ? size - window : size - window + nl + 1;
  std::string_view line = std::string_view(tail).substr(nl == std::string::npos ? 0 : nl + 1);
  if (json::Parse(line, json::ForeignLogLine())) return std::optional<uint64_t>();
  return std::optional<uint64_t>(line_start);
}

}  // namespace

// A torn last line (TornAppend) is moved into the store's quarantine/ under
// our lock (store::QuarantineTornTailOf: never deleted), so that no append
// leaves a broken line; a whole one without its newline gets ours apart.
Status AppendFile::MendTail() {
  std::string rel = path_;
  if (rel.size() > store_dir_.size() + 1 && rel.compare(0, store_dir_.size(), store_dir_) == 0 &&
      rel[store_dir_.size()] == '/') {
    rel.erase(0, store_dir_.size() + 1);
  } else {
    rel = fs::Basename(path_);
  }
  LORE_ASSIGN(std::optional<std::string> moved,
              store::QuarantineTornTailOf(store_dir_, rel, fd_.get(), TornAppend));
  if (moved) quarantined_ = std::move(*moved);
  struct stat st;
  if (::fstat(fd_.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path_));
  initial_size_ = st.st_size;
  if (initial_size_ > 0) {
    char last = '\n';
    LORE_ASSIGN(size_t got,
                fs::ReadAt(fd_.get(), &last, 1, static_cast<uint64_t>(initial_size_) - 1, path_));
    needs_newline_ = got == 1 && last != '\n';
  }
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
