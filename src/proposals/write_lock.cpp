#include "lore/proposals/write_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "lore/fs/fd.h"
#include "lore/proposals/js_json.h"
#include "lore/sys/process.h"
#include "lore/sys/random.h"
#include "lore/text/time.h"
#include "lore/json/reader.h"

namespace lore::proposals {
namespace {

std::string LockBody() {
  Json body = Json::object();
  body["pid"] = static_cast<int64_t>(::getpid());
  body["host"] = sys::HostName();
  body["acquiredAt"] = text::UtcMillis(std::chrono::system_clock::now());
  return DumpJs(body);
}

Error BusyError(const std::string& path, const LockHolder& h, HolderState state) {
  std::string who = "pid " + std::to_string(h.pid) + " on host " + h.host +
                    (h.acquired_at.empty() ? "" : " since " + h.acquired_at);
  switch (state) {
    case HolderState::kForeign:
      return Error{ErrorCode::kBusy,
                   "the proposals write lock is held by " + who + " (another host)", path, 0,
                   "lore never breaks another host's lock: if no lore process runs on " + h.host +
                       ", remove the lock file by hand"};
    case HolderState::kUnreadable:
      return Error{ErrorCode::kBusy, "the proposals write lock has a body lore cannot read", path,
                   0, "if no lore process is using this store, remove the lock file by hand"};
    default:
      return Error{ErrorCode::kBusy,
                   "timed out waiting for the proposals write lock held by " + who, path, 0,
                   "retry when that process has finished"};
  }
}

// Removes the lock at `path` if it is still the stale file opened as `fd`.
// Returns true when it was removed (by us).
bool RemoveStale(const std::string& path, int fd) {
  struct stat held, now;
  if (::fstat(fd, &held) != 0) return false;
  if (::flock(fd, LOCK_EX) != 0) return false;  // one reclaimer at a time
  bool removed = false;
  if (::lstat(path.c_str(), &now) == 0 && now.st_ino == held.st_ino && now.st_dev == held.st_dev) {
    removed = ::unlink(path.c_str()) == 0;
  }
  ::flock(fd, LOCK_UN);
  return removed;
}

}  // namespace

LockHolder ParseLockBody(std::string_view body) {
  LockHolder h;
  auto parsed = json::ParseOrdered(body, json::Limits{});
  if (!parsed || !parsed->is_object()) return h;
  const Json& j = *parsed;
  if (!j.contains("pid") || !j["pid"].is_number_integer()) return h;
  if (!j.contains("host") || !j["host"].is_string()) return h;
  h.pid = j["pid"].get<int64_t>();
  h.host = j["host"].get<std::string>();
  if (j.contains("acquiredAt") && j["acquiredAt"].is_string()) {
    h.acquired_at = j["acquiredAt"].get<std::string>();
  }
  h.readable = h.pid > 0;
  return h;
}

HolderState Judge(const LockHolder& h, time_t lock_mtime) {
  if (!h.readable) return HolderState::kUnreadable;
  if (h.host != sys::HostName()) return HolderState::kForeign;
  // Alive, unless its pid now names a process that started after the lock
  // was taken (the holder died and its pid was given to another).
  return sys::ProcessAliveSince(h.pid, std::chrono::system_clock::from_time_t(lock_mtime))
             ? HolderState::kLive
             : HolderState::kDead;
}

Result<WriteLock> WriteLock::Acquire(const std::string& path, std::chrono::milliseconds timeout) {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "%d.%08x", static_cast<int>(::getpid()), sys::Random32());
  const std::string temp =
      fs::Join(fs::Dirname(path), ".proposals-write.lock.tmp." + std::string(suffix));
  LORE_ASSIGN(fs::Fd tfd, fs::Open(temp, O_WRONLY | O_CREAT | O_EXCL, 0600));
  struct Cleanup {
    const std::string& p;
    ~Cleanup() { ::unlink(p.c_str()); }
  } cleanup{temp};
  LORE_TRY(fs::WriteAll(tfd.get(), LockBody(), temp));
  struct stat mine;
  if (::fstat(tfd.get(), &mine) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", temp));

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(200);
  LockHolder reclaimed;
  for (;;) {
    if (::link(temp.c_str(), path.c_str()) == 0) {
      WriteLock lock(path, mine.st_dev, mine.st_ino);
      lock.held_ = true;
      lock.reclaimed_ = reclaimed;
      return lock;
    }
    if (errno != EEXIST) return tl::unexpected(fs::ErrnoError(errno, "cannot create lock", path));
    auto fd = fs::Open(path, O_RDONLY);
    if (!fd) {
      if (fd.error().code == ErrorCode::kSymlink) {
        return Fail(ErrorCode::kSymlink, "proposals-write.lock is a symlink", path, 0,
                    "remove the symlink (lore refuses symlinks in store paths)");
      }
      if (fd.error().code != ErrorCode::kNotFound) return tl::unexpected(fd.error());
      continue;  // released meanwhile: try again at once
    }
    struct stat st;
    auto body = fs::ReadAll(fd->get(), path);
    LockHolder holder;
    HolderState state = HolderState::kUnreadable;
    if (body && ::fstat(fd->get(), &st) == 0) {
      holder = ParseLockBody(*body);
      state = Judge(holder, st.st_mtime);
    }
    if (state == HolderState::kDead && RemoveStale(path, fd->get())) {
      reclaimed = holder;
      continue;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return tl::unexpected(BusyError(path, holder, state));
    }
    std::this_thread::sleep_for(pause + std::chrono::microseconds(sys::Random32() % 200));
    if (pause < std::chrono::milliseconds(10)) pause *= 2;
  }
}

WriteLock::WriteLock(WriteLock&& o) noexcept
    : path_(std::move(o.path_)),
      dev_(o.dev_),
      ino_(o.ino_),
      held_(o.held_),
      reclaimed_(o.reclaimed_) {
  o.held_ = false;
}

WriteLock::~WriteLock() {
  if (!held_) return;
  struct stat st;
  if (::lstat(path_.c_str(), &st) == 0 && st.st_ino == ino_ && st.st_dev == dev_) {
    ::unlink(path_.c_str());
  }
}

}  // namespace lore::proposals
