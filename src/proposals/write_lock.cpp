#include "lore/proposals/write_lock.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "fs/temp_name.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/sys/process.h"
#include "lore/sys/random.h"
#include "lore/text/time.h"

namespace lore::proposals {
namespace {

constexpr std::string_view kWhat = "the proposals write lock";

// A temporary beside the lock holding this process's body, fully written.
Result<std::string> WriteTemp(const std::string& path) {
  const std::string temp = fs::TempPath(path);
  LORE_ASSIGN(fs::Fd fd, fs::Open(temp, O_WRONLY | O_CREAT | O_EXCL, 0600));
  fs::Holder me{::getpid(), sys::HostName(), text::UtcMillis(std::chrono::system_clock::now())};
  if (auto s = fs::WriteAll(fd.get(), RenderLockBody(me), temp); !s) {
    ::unlink(temp.c_str());
    return tl::unexpected(s.error());
  }
  return temp;
}

// Removes the lock at `path` if it is still the stale file opened as `fd`.
// Returns true when it was removed (by us).
bool RemoveStale(const std::string& path, int fd) {
  struct stat held, now;
  if (::fstat(fd, &held) != 0) return false;
  if (!fs::LockFd(fd, fs::LockMode::kExclusive, path)) return false;  // one reclaimer at a time
  bool removed = false;
  if (::lstat(path.c_str(), &now) == 0 && now.st_ino == held.st_ino && now.st_dev == held.st_dev) {
    removed = ::unlink(path.c_str()) == 0;
  }
  fs::UnlockFd(fd);
  return removed;
}

// What the lock file at `path` says, judged. nullopt when it is gone.
struct Found {
  std::optional<fs::Holder> holder;
  fs::HolderState state = fs::HolderState::kUnreadable;
  fs::Fd fd;
};
Result<std::optional<Found>> Inspect(const std::string& path) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) {
    if (fd.error().code == ErrorCode::kSymlink) {
      return Fail(ErrorCode::kSymlink, "proposals-write.lock is a symlink", path, 0,
                  "remove the symlink (lore refuses symlinks in store paths)");
    }
    if (fd.error().code == ErrorCode::kNotFound) return std::optional<Found>();
    return tl::unexpected(fd.error());
  }
  Found f;
  struct stat st;
  auto body = fs::ReadAll(fd->get(), path, fs::Kind::kState);
  if (body && ::fstat(fd->get(), &st) == 0) {
    f.holder = ParseLockBody(*body);
    f.state = fs::Judge(f.holder, std::chrono::system_clock::from_time_t(st.st_mtime));
  }
  f.fd = std::move(*fd);
  return std::optional<Found>(std::move(f));
}

}  // namespace

std::string RenderLockBody(const fs::Holder& h) {
  Json body = Json::object();
  body["pid"] = h.pid;
  body["host"] = h.host;
  body["acquiredAt"] = h.since;
  return json::DumpJs(body);
}

std::optional<fs::Holder> ParseLockBody(std::string_view body) {
  auto parsed = json::ParseOrdered(body, json::Limits{});
  if (!parsed || !parsed->is_object()) return std::nullopt;
  const Json& j = *parsed;
  auto pid = j.find("pid");
  auto host = json::String(j, "host");
  if (pid == j.end() || !pid->is_number_integer() || !host) return std::nullopt;
  fs::Holder h{pid->get<int64_t>(), *host, json::StringOr(j, "acquiredAt", "")};
  if (h.pid <= 0) return std::nullopt;
  return h;
}

Result<WriteLock> WriteLock::Acquire(const std::string& path, std::chrono::milliseconds timeout) {
  LORE_ASSIGN(store::StoreLock store,
              store::StoreLock::Acquire(fs::Dirname(path), fs::LockMode::kExclusive));
  LORE_ASSIGN(const std::string temp, WriteTemp(path));
  struct Cleanup {
    const std::string& p;
    ~Cleanup() { ::unlink(p.c_str()); }
  } cleanup{temp};
  auto mine = fs::LStat(temp);
  if (!mine) return tl::unexpected(mine.error());

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(200);
  std::optional<fs::Holder> reclaimed;
  for (;;) {
    if (::link(temp.c_str(), path.c_str()) == 0) {
      WriteLock lock(std::move(store), path, mine->st_dev, mine->st_ino);
      lock.held_ = true;
      lock.reclaimed_ = std::move(reclaimed);
      return lock;
    }
    if (errno != EEXIST) return tl::unexpected(fs::ErrnoError(errno, "cannot create lock", path));
    LORE_ASSIGN(std::optional<Found> found, Inspect(path));
    if (!found) continue;  // released meanwhile: try again at once
    if (found->state == fs::HolderState::kDead && RemoveStale(path, found->fd.get())) {
      reclaimed = found->holder;
      continue;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return tl::unexpected(fs::BusyError(kWhat, path, found->holder, found->state));
    }
    std::this_thread::sleep_for(pause + std::chrono::microseconds(sys::Random32() % 200));
    if (pause < std::chrono::milliseconds(10)) pause *= 2;
  }
}

WriteLock::WriteLock(WriteLock&& o) noexcept
    : store_(std::move(o.store_)),
      path_(std::move(o.path_)),
      dev_(o.dev_),
      ino_(o.ino_),
      held_(o.held_),
      reclaimed_(std::move(o.reclaimed_)) {
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
