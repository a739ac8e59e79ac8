#include "lore/proposals/append_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "lore/fs/file_lock.h"

namespace lore::proposals {

Result<AppendFile> AppendFile::Open(const std::string& path) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_WRONLY | O_APPEND | O_CREAT, 0600));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "not a regular file", path, 0, "move it away");
  }
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, path, std::chrono::seconds(10)));
  AppendFile f(path, std::move(fd));
  if (::fstat(f.fd(), &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  f.initial_size_ = st.st_size;
  if (st.st_size > 0) {
    // Reading needs a readable descriptor; O_APPEND ones are write-only.
    auto rfd = fs::Open(path, O_RDONLY);
    char last = '\n';
    if (rfd && ::pread(rfd->get(), &last, 1, st.st_size - 1) == 1) f.needs_newline_ = last != '\n';
  }
  return f;
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
