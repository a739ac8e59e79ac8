#include "lore/fs/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <random>

namespace lore::fs {

Result<AtomicFile> AtomicFile::Create(std::string path, mode_t mode) {
  LORE_TRY(RefuseSymlink(path, "file"));
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string name = ".";
    name += Basename(path);
    name += ".tmp.";
    name += std::to_string(::getpid());
    name += '.';
    name += std::to_string(rd() & 0xffffff);
    std::string temp = Join(Dirname(path), name);
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd >= 0) {
      ::fchmod(fd, mode);  // not subject to the umask
      return AtomicFile(std::move(path), std::move(temp), Fd(fd));
    }
    if (errno != EEXIST) return tl::unexpected(ErrnoError(errno, "cannot create", temp));
  }
  return Fail(ErrorCode::kIo, "cannot create a temporary file beside", path, 0,
              "remove stale .tmp files in its directory");
}

AtomicFile::~AtomicFile() {
  if (!committed_ && !temp_.empty()) {
    fd_.Reset();
    ::unlink(temp_.c_str());
  }
}

Status AtomicFile::Write(std::string_view data) { return WriteAll(fd_.get(), data, temp_); }

Status AtomicFile::Commit() {
  if (::fsync(fd_.get()) != 0) return tl::unexpected(ErrnoError(errno, "cannot sync", temp_));
  fd_.Reset();
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    return tl::unexpected(ErrnoError(errno, "cannot rename into place", path_));
  }
  committed_ = true;
  return SyncDir(Dirname(path_));
}

Status WriteFileAtomic(const std::string& path, std::string_view data, mode_t mode) {
  LORE_ASSIGN(AtomicFile f, AtomicFile::Create(path, mode));
  LORE_TRY(f.Write(data));
  return f.Commit();
}

}  // namespace lore::fs
