#include "log/torn_tail.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "fs/tail.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/log/jsonl.h"
#include "lore/log/line_stream.h"

namespace lore::log {
namespace {

constexpr int kMaxAsideNames = 1000;  // names tried for one torn tail's copy

}  // namespace

Result<std::optional<uint64_t>> TornTailStart(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size == 0) return std::optional<uint64_t>();
  // Back from the end, a chunk at a time, to the last '\n'. A tail longer
  // than a line may be is torn whatever it holds, and is not kept.
  constexpr size_t kChunk = size_t{1} << 20;
  std::string tail;
  bool too_long = false;
  uint64_t start = size;
  while (start > 0) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, start));
    std::string chunk(want, '\0');
    LORE_ASSIGN(size_t got, fs::ReadAt(fd, chunk.data(), want, start - want, path));
    if (got != want) {
      return Fail(ErrorCode::kIo, "the file shrank while it was read", path, 0,
                  "retry once no other program writes to it");
    }
    if (const void* nl = ::memrchr(chunk.data(), '\n', want)) {
      const size_t after = static_cast<size_t>(static_cast<const char*>(nl) - chunk.data()) + 1;
      if (start == size && after == want) return std::optional<uint64_t>();  // ends with '\n'
      if (!too_long) tail.insert(0, chunk, after, std::string::npos);
      start -= want - after;
      break;
    }
    if (!too_long) tail.insert(0, chunk);
    start -= want;
    if (tail.size() > kMaxLineBytes) {
      too_long = true;
      tail.clear();
    }
  }
  if (!too_long && !CheckObjectLine(Line{1, tail, /*has_newline=*/false})) {
    return std::optional<uint64_t>();  // a whole object (or blanks) without its newline
  }
  return std::optional<uint64_t>(start);
}

Error TornTailError(const std::string& path, int64_t line) {
  return Error{ErrorCode::kCorrupt,
               "torn last line (an append was cut off: no newline, not a whole JSON object)", path,
               line,
               "run 'lore check --repair': it moves the torn bytes into the store's quarantine/ "
               "folder and cuts the file back to its last complete line"};
}

Result<std::optional<std::string>> QuarantineTornTail(
    const std::string& path, const CutRule& rule,
    const std::function<Result<std::string>(uint64_t offset)>& aside) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDWR));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, path));
  return QuarantineTornTailOf(fd.get(), path, rule, aside);
}

Result<std::optional<std::string>> QuarantineTornTailOf(
    int fd, const std::string& path, const CutRule& rule,
    const std::function<Result<std::string>(uint64_t offset)>& aside) {
  LORE_ASSIGN(std::optional<uint64_t> keep, rule(fd, path));
  if (!keep) return std::optional<std::string>();
  LORE_ASSIGN(const std::string base, aside(*keep));
  // A name that holds other bytes (the log was torn at the same offset
  // before) is never overwritten: the next free one is taken, <base>.2, .3, …
  std::string copy = base;
  for (int n = 2;; ++n) {
    auto moved = fs::MoveTailAside(fd, path, *keep, copy);
    if (moved) break;
    if (moved.error().code != ErrorCode::kExists || n > kMaxAsideNames) {
      return tl::unexpected(moved.error());
    }
    copy = base + "." + std::to_string(n);
  }
  return std::optional<std::string>(std::move(copy));
}

}  // namespace lore::log
