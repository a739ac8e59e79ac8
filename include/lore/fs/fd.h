// RAII file descriptors and the small set of file operations every module uses.
// All functions refuse to follow a symlink in the last path component
// (O_NOFOLLOW) and map errno to an Error naming the path and the repair.
//
// This is the one reader of lore: every file lore reads is opened here, without
// blocking (O_NONBLOCK, so a FIFO never waits for a writer), and refused at once
// unless it is a regular file (a FIFO, a device or a socket is an error naming
// the file); a whole-file read has a size cap for the kind of file it is; reads
// inside the store never pass through a symlink, folders included (OpenBeneath).
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>

#include <optional>
#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::fs {

// Owns one file descriptor; closes it on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(Fd&& o) noexcept : fd_(o.Release()) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) Reset(o.Release());
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int Release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }
  void Reset(int fd = -1);

 private:
  int fd_ = -1;
};

// The repair advice for a permission failure (seed 003).
inline constexpr const char* kPermissionRepair =
    "rerun outside the sandbox or with escalated permissions";

// Builds an Error from errno `err` for an operation `op` on `path`:
// EACCES/EPERM/EROFS -> kPermission, ELOOP -> kSymlink, ENOENT -> kNotFound,
// else kIo (ENOSPC and ENAMETOOLONG with their repair).
Error ErrnoError(int err, std::string_view op, const std::string& path);

// What a whole-file read holds: it chooses the size cap (Cap) and the repair.
// docs/formats.md ("Reading files") lists each cap and why.
enum class Kind {
  kRecord,         // a memory record, knowledge or okf page, summary.md
  kIndexPage,      // okf/index.md (read by every session start and search)
  kConfig,         // config.toml, a checkout's .git/config and gitdir files, team settings
  kState,          // lore's own small files: cursors, markers, run state, summaries, leases
  kPlan,           // `review --plan`
  kBody,           // `memory write --body-file`
  kAgentSettings,  // the agent's files `lore init` merges (settings.json, .mcp.json, ...)
  kTranscript,     // an agent's transcript read whole
  kLog,            // a JSON Lines log read whole (raw.jsonl, learnings.jsonl, the queue)
  kArchive,        // an archive's member or file exported whole
};
// The most bytes a whole-file read of `kind` returns; a larger file is an error.
uint64_t Cap(Kind kind);
// "a FIFO", "a device", "a socket", "a directory", "a symlink": what a
// non-regular file is, for an error message.
const char* FileTypeName(mode_t mode);
// The error for a file that is not a regular file (`mode` its st_mode).
Error NotRegularError(mode_t mode, const std::string& path);

// open(2) with O_CLOEXEC|O_NOFOLLOW|O_NONBLOCK added to `flags` (so that a FIFO
// never blocks the open). Unless `flags` holds O_DIRECTORY, anything but a
// regular file is refused at once (NotRegularError).
Result<Fd> Open(const std::string& path, int flags, mode_t mode = 0600);
// Opens a file the person named (a transcript path) read-only as Open does,
// but following a symlink: the person chose it, it is not in the store.
Result<Fd> OpenNamedFile(const std::string& path);
// Opens `rel` beneath the directory `root` with `flags` as Open does, never
// following a symlink in any component of `rel` (openat2 with
// RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH; a component-by-component
// openat(O_NOFOLLOW) walk where the kernel lacks it). `root` itself is opened
// as given. A ".." component or an absolute `rel` is refused. A symlink met is
// an Error with code kSymlink naming it.
Result<Fd> OpenBeneath(const std::string& root, std::string_view rel, int flags,
                       mode_t mode = 0600);

// Reads the whole of an open descriptor: at most Cap(kind) bytes (a longer
// file, by its size or by growing while read, is an error naming `path`, its
// size, the cap and the repair).
Result<std::string> ReadAll(int fd, const std::string& path, Kind kind);
// Reads `want` bytes at `offset` into `out` with pread (retried when
// interrupted or short); fewer only at the end of the file. The file offset
// does not move. An error names `path`.
Result<size_t> ReadAt(int fd, char* out, size_t want, uint64_t offset, const std::string& path);
// The size of the open file when its last byte is not '\n' (a last line
// without its end: a torn append, or a line someone else left open);
// nullopt when it is empty or ends with '\n'. An error names `path`.
Result<std::optional<uint64_t>> UnterminatedSize(int fd, const std::string& path);
// Reads a whole regular file (not through a symlink) of at most Cap(kind) bytes.
Result<std::string> ReadFile(const std::string& path, Kind kind);
// Reads `root`/`rel` as ReadFile does, through no symlink beneath `root`.
Result<std::string> ReadFileBeneath(const std::string& root, std::string_view rel, Kind kind);
// Writes all bytes, retrying short writes and EINTR.
Status WriteAll(int fd, std::string_view data, const std::string& path);

// lstat(2). A missing file is an Error with code kNotFound.
Result<struct stat> LStat(const std::string& path);
// False only when `path` is known to be absent (ENOENT, ENOTDIR): see fd.cpp.
bool Exists(const std::string& path);
// An error when `path` is a symlink; OK when it is anything else or missing.
Status RefuseSymlink(const std::string& path, std::string_view role);

// Creates directory `path` with `mode` if missing (parents too, each 0700).
// Refuses when `path` exists as a symlink or a non-directory.
Status MakeDirs(const std::string& path, mode_t mode = 0700);

// fsync(2) of an open file, retried on EINTR; `path` names it in the error.
Status SyncFile(int fd, const std::string& path);
// fsync of a directory, so that a rename or create in it is durable.
Status SyncDir(const std::string& dir);

// Path helpers (purely lexical).
std::string Join(std::string_view a, std::string_view b);
std::string Dirname(std::string_view path);
std::string Basename(std::string_view path);
// Makes `path` absolute against the current directory and removes "." and
// ".." components and duplicate slashes lexically.
std::string Absolute(std::string_view path);

}  // namespace lore::fs
