#include "lore/consolidate/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "lore/consolidate/staging.h"
#include "lore/json/reader.h"
#include "lore/sys/process.h"

namespace lore::consolidate {
namespace {

using Json = nlohmann::ordered_json;

Result<std::string> ReadBody(int fd, const std::string& path) {
  std::string out;
  char buf[4096];
  off_t off = 0;
  for (;;) {
    ssize_t n = ::pread(fd, buf, sizeof buf, off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(fs::ErrnoError(errno, "cannot read", path));
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
    off += n;
  }
  return out;
}

}  // namespace

std::string RenderLockBody(const LockBody& b) {
  Json j = {{"pid", b.pid},
            {"pod_name", b.pod_name},
            {"started_at", b.started_at},
            {"consumed_ids", b.consumed_ids}};
  return j.dump() + "\n";
}

std::optional<LockBody> ParseLockBody(std::string_view text) {
  auto parsed = json::ParseOrdered(text, json::Limits{});
  if (!parsed || !parsed->is_object()) return std::nullopt;
  const Json& j = *parsed;
  LockBody b;
  auto pid = j.find("pid");
  if (pid == j.end() || !pid->is_number_integer()) return std::nullopt;
  b.pid = pid->get<int64_t>();
  if (auto p = j.find("pod_name"); p != j.end() && p->is_string())
    b.pod_name = p->get<std::string>();
  if (auto s = j.find("started_at"); s != j.end() && s->is_string())
    b.started_at = s->get<std::string>();
  if (auto c = j.find("consumed_ids"); c != j.end() && c->is_array()) {
    for (const auto& id : *c) {
      if (id.is_string()) b.consumed_ids.push_back(id.get<std::string>());
    }
  }
  return b;
}

// How long a run refused by the lock waits for the holder's body: 40 x 5 ms.
constexpr int kHolderWaitPolls = 40;
constexpr std::chrono::milliseconds kHolderWaitPoll{5};

Result<RunLock::Attempt> RunLock::TryAcquire(const store::Store& store) {
  std::string path = fs::Join(store.Path(kStagingDir), kLockName);
  for (int round = 0; round < 64; ++round) {
    LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDWR | O_CREAT, 0600));
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
      if (errno == EINTR) continue;
      if (errno != EWOULDBLOCK) return tl::unexpected(fs::ErrnoError(errno, "cannot lock", path));
      // The holder publishes who it is once it has read the staged entries
      // (runner.cpp); until then the body is empty. Give it a moment, so
      // that the refusal can name it.
      Attempt busy;
      for (int wait = 0; wait < kHolderWaitPolls && !busy.holder; ++wait) {
        if (wait > 0) std::this_thread::sleep_for(kHolderWaitPoll);
        if (auto text = ReadBody(fd.get(), path)) busy.holder = ParseLockBody(*text);
      }
      return busy;
    }
    // The holder before us may have removed the file after we opened it.
    struct stat mine, now;
    if (::fstat(fd.get(), &mine) != 0)
      return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
    if (::lstat(path.c_str(), &now) != 0 || now.st_ino != mine.st_ino ||
        now.st_dev != mine.st_dev) {
      continue;
    }
    Attempt taken;
    LORE_ASSIGN(std::string left, ReadBody(fd.get(), path));
    if (!left.empty()) {
      taken.reclaimed = ParseLockBody(left);
      if (!taken.reclaimed) taken.reclaimed_empty = true;
    }
    // An empty file is ours (just created) or a holder's that died before
    // publishing: both are taken silently.
    if (::ftruncate(fd.get(), 0) != 0)
      return tl::unexpected(fs::ErrnoError(errno, "cannot truncate", path));
    taken.lock.emplace(RunLock(path, std::move(fd)));
    return taken;
  }
  return Fail(ErrorCode::kBusy, "the consolidation lock keeps changing under us", path, 0,
              "retry; if it persists, check for a process removing staging/.consolidation.lock");
}

Status RunLock::Publish(const LockBody& body) {
  std::string text = RenderLockBody(body);
  if (::ftruncate(fd_.get(), 0) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot truncate", path_));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n =
        ::pwrite(fd_.get(), text.data() + done, text.size() - done, static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(fs::ErrnoError(errno, "cannot write", path_));
    }
    done += static_cast<size_t>(n);
  }
  if (::fdatasync(fd_.get()) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot sync", path_));
  return Ok();
}

void RunLock::Release() {
  if (!fd_.valid()) return;
  struct stat mine, now;
  if (::fstat(fd_.get(), &mine) == 0 && ::lstat(path_.c_str(), &now) == 0 &&
      mine.st_ino == now.st_ino && mine.st_dev == now.st_dev) {
    ::unlink(path_.c_str());
  }
  fd_.Reset();  // drops the flock
}

Result<std::optional<LockView>> InspectRunLock(const store::Store& store) {
  std::string path = fs::Join(store.Path(kStagingDir), kLockName);
  auto text = fs::ReadFile(path);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return std::optional<LockView>();
    return tl::unexpected(text.error());
  }
  LockView v;
  auto body = ParseLockBody(*text);
  if (!body) {
    // Being written right now, or left empty by a holder that died early.
    v.alive = false;
    return std::optional<LockView>(v);
  }
  v.body = *body;
  v.alive = body->pod_name != sys::HostName() || sys::ProcessAlive(body->pid);
  return std::optional<LockView>(v);
}

}  // namespace lore::consolidate
