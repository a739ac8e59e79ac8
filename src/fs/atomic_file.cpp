#include "fs/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "fs/temp_name.h"

namespace lore::fs {

Result<AtomicFile> AtomicFile::Create(std::string path, mode_t mode, Durability durability) {
  LORE_TRY(RefuseSymlink(path, "file"));
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string temp = TempPath(path, TempKind::kFile);
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd >= 0) {
      ::fchmod(fd, mode);  // not subject to the umask
      return AtomicFile(std::move(path), std::move(temp), Fd(fd), durability);
    }
    if (errno != EEXIST) return tl::unexpected(ErrnoError(errno, "cannot create", temp));
  }
  return Fail(ErrorCode::kIo, "cannot create a temporary file beside", path, 0,
              "run lore check --repair to remove stale temporary files");
}

AtomicFile::~AtomicFile() {
  if (!committed_ && !temp_.empty()) {
    fd_.Reset();
    ::unlink(temp_.c_str());
  }
}

Status AtomicFile::Write(std::string_view data) { return WriteAll(fd_.get(), data, temp_); }

Status AtomicFile::Commit() {
  if (durability_ == Durability::kDurable) LORE_TRY(SyncFile(fd_.get(), temp_));
  fd_.Reset();
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    return tl::unexpected(ErrnoError(errno, "cannot rename into place", path_));
  }
  committed_ = true;
  if (durability_ == Durability::kVisibleOnly) return Ok();
  return SyncDir(Dirname(path_));
}

Status WriteFileAtomic(const std::string& path, std::string_view data, mode_t mode,
                       Durability durability) {
  LORE_ASSIGN(AtomicFile f, AtomicFile::Create(path, mode, durability));
  LORE_TRY(f.Write(data));
  return f.Commit();
}

Status WriteNewFile(const std::string& path, std::string_view data, mode_t mode) {
  LORE_ASSIGN(Fd fd, Open(path, O_WRONLY | O_CREAT | O_EXCL, mode));
  auto written = [&]() -> Status {
    if (::fchmod(fd.get(), mode) != 0) {
      return tl::unexpected(ErrnoError(errno, "cannot set the mode of", path));
    }
    LORE_TRY(WriteAll(fd.get(), data, path));
    return SyncFile(fd.get(), path);
  }();
  if (!written) ::unlink(path.c_str());
  return written;
}

}  // namespace lore::fs
