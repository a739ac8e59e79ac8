#include "lore/proposals/write_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "lore/fs/fd.h"
#include "lore/proposals/js_json.h"
#include "lore/text/time.h"
#include "lore/json/reader.h"

namespace lore::proposals {
namespace {

// Seconds since the epoch at which `pid` started, or -1 when unknown.
int64_t ProcessStart(int64_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return -1;
  size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
    if (i == 22) {
      std::ifstream st("/proc/stat");
      std::string key;
      int64_t btime = -1;
      while (st >> key) {
        if (key == "btime") {
          st >> btime;
          break;
        }
      }
      long hz = ::sysconf(_SC_CLK_TCK);
      if (btime < 0 || hz <= 0) return -1;
      return btime + std::strtoll(field.c_str(), nullptr, 10) / hz;
    }
  }
  return -1;
}

std::string LockBody() {
  Json body = Json::object();
  body["pid"] = static_cast<int64_t>(::getpid());
  body["host"] = HostName();
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

std::string HostName() {
  char buf[256] = {0};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

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
  if (h.host != HostName()) return HolderState::kForeign;
  if (::kill(static_cast<pid_t>(h.pid), 0) != 0 && errno == ESRCH) return HolderState::kDead;
  // The pid is in use: by the holder, unless that process started after the
  // lock was taken (the holder died and its pid was given to another).
  int64_t start = ProcessStart(h.pid);
  if (start >= 0 && start > static_cast<int64_t>(lock_mtime) + 1) return HolderState::kDead;
  return HolderState::kLive;
}

Result<WriteLock> WriteLock::Acquire(const std::string& path, std::chrono::milliseconds timeout) {
  std::random_device rd;
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "%d.%08x", static_cast<int>(::getpid()), rd());
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
  std::minstd_rand jitter(rd());
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
    std::this_thread::sleep_for(pause + std::chrono::microseconds(jitter() % 200));
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
