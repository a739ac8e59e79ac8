// The judgement of a lock's holder and the one wording of a busy lock
// (fs/file_lock.h).
#include "lore/fs/file_lock.h"
#include "lore/sys/process.h"

namespace lore::fs {
namespace {

std::string Who(const Holder& h) {
  return "pid " + std::to_string(h.pid) + " on host " + h.host +
         (h.since.empty() ? "" : " since " + h.since);
}

}  // namespace

HolderState Judge(const std::optional<Holder>& h, std::chrono::system_clock::time_point taken_at) {
  if (!h || h->pid <= 0 || h->host.empty()) return HolderState::kUnreadable;
  if (h->host != sys::HostName()) return HolderState::kForeign;
  return sys::ProcessAliveSince(h->pid, taken_at) ? HolderState::kLive : HolderState::kDead;
}

Error BusyError(std::string_view what, const std::string& path, const std::optional<Holder>& h,
                HolderState state) {
  const std::string lock(what);
  switch (state) {
    case HolderState::kForeign:
      return Error{ErrorCode::kBusy, lock + " is held by " + Who(*h) + " (another host)", path, 0,
                   "lore never breaks another host's lock: if no lore process runs on " + h->host +
                       ", remove the lock file by hand"};
    case HolderState::kUnreadable:
      return Error{ErrorCode::kBusy, lock + " has a body lore cannot read", path, 0,
                   "if no lore process is using this store, remove the lock file by hand"};
    case HolderState::kDead:
      return Error{ErrorCode::kBusy, lock + " was left by " + Who(*h) + ", which is gone", path, 0,
                   "lore could not remove it: remove the lock file by hand"};
    case HolderState::kLive:
      break;
  }
  return Error{ErrorCode::kBusy, "timed out waiting for " + lock + " held by " + Who(*h), path, 0,
               "retry when that process has finished"};
}

Error BusyError(std::string_view what, const std::string& path) {
  return Error{ErrorCode::kBusy, "timed out waiting for " + std::string(what), path, 0,
               "another lore process holds it; retry when it has finished"};
}

}  // namespace lore::fs
