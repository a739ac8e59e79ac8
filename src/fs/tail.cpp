#include "fs/tail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"

namespace lore::fs {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

// Whether the file `aside` holds exactly bytes [keep, size) of `fd`.
Result<bool> HoldsTail(const std::string& aside, int fd, const std::string& path, uint64_t keep,
                       uint64_t size) {
  LORE_ASSIGN(Fd copy, Open(aside, O_RDONLY));
  struct stat st;
  if (::fstat(copy.get(), &st) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", aside));
  if (static_cast<uint64_t>(st.st_size) != size - keep) return false;
  std::string a(kChunk, '\0'), b(kChunk, '\0');
  for (uint64_t at = keep; at < size;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, size - at));
    LORE_ASSIGN(size_t got_a, ReadAt(copy.get(), a.data(), want, at - keep, aside));
    LORE_ASSIGN(size_t got_b, ReadAt(fd, b.data(), want, at, path));
    if (got_a != want || got_b != want || std::memcmp(a.data(), b.data(), want) != 0) return false;
    at += want;
  }
  return true;
}

Status CopyTail(int fd, const std::string& path, uint64_t keep, uint64_t size,
                const std::string& aside) {
  LORE_ASSIGN(AtomicFile copy, AtomicFile::Create(aside));
  std::string buf(kChunk, '\0');
  for (uint64_t at = keep; at < size;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, size - at));
    LORE_ASSIGN(size_t got, ReadAt(fd, buf.data(), want, at, path));
    if (got != want) {
      return Fail(ErrorCode::kIo, "the file shrank while its tail was copied", path, 0,
                  "retry once no other program writes to it");
    }
    LORE_TRY(copy.Write(std::string_view(buf.data(), got)));
    at += got;
  }
  return copy.Commit();
}

}  // namespace

Status MoveTailAside(int fd, const std::string& path, uint64_t keep, const std::string& aside) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (keep >= size) return Ok();
  if (Exists(aside)) {
    LORE_ASSIGN(bool same, HoldsTail(aside, fd, path, keep, size));
    if (!same) {
      return Fail(ErrorCode::kExists, "another file already has the name", aside, 0,
                  "move that file elsewhere, then retry");
    }
  } else {
    LORE_TRY(CopyTail(fd, path, keep, size, aside));
  }
  if (::ftruncate(fd, static_cast<off_t>(keep)) != 0) {
    return tl::unexpected(ErrnoError(errno, "cannot cut back", path));
  }
  return SyncFile(fd, path);
}

}  // namespace lore::fs
