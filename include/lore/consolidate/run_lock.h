// The single-flight lock of consolidation: `staging/.consolidation.lock`, an
// owned lock file (fs::FileLock, kOwnedFile).
//
// The file exists while a consolidation runs and is held with an exclusive
// flock(2) for the run's whole life; its body says who holds it:
//   {"pid": 4242, "pod_name": "host", "started_at": "...Z", "consumed_ids": [...]}
// The kernel drops the flock when the holder dies however it dies, so the
// flock is the truth and the body is information: a starter that cannot take
// the flock leaves; one that can, but finds a body, has found the lock of a
// dead holder and reclaims it (the caller warns). A holder that ends removes
// the file while still holding the flock; a starter that locked a file which
// is no longer the one at the path starts over.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/fs/file_lock.h"
#include "lore/store/store.h"

namespace lore::consolidate {

struct LockBody {
  int64_t pid = 0;
  std::string pod_name;  // the holder's host name
  std::string started_at;
  std::vector<std::string> consumed_ids;

  // Who holds the lock, as fs::Judge sees it.
  fs::Holder holder() const { return fs::Holder{pid, pod_name, started_at}; }
};

// The body as one JSON line (keys in the order above).
std::string RenderLockBody(const LockBody& body);
// Parses a body; nullopt when it is not one (empty, torn while written).
std::optional<LockBody> ParseLockBody(std::string_view text);

class RunLock {
 public:
  struct Attempt;
  // Tries once to take the lock of `store` (the staging folder must exist):
  // never waits for it, but when it is held waits up to 200 ms for the
  // holder to publish its body, so that the refusal can name the holder.
  // See Attempt for the outcomes.
  static Result<Attempt> TryAcquire(const store::Store& store);

  // Replaces the body (in place: the locked file must stay the same inode),
  // then fdatasyncs it.
  Status Publish(const LockBody& body) { return lock_.Publish(RenderLockBody(body)); }
  // Removes the file and drops the flock. Idempotent.
  void Release() { lock_.Release(); }

  const std::string& path() const { return lock_.path(); }

 private:
  explicit RunLock(fs::FileLock lock) : lock_(std::move(lock)) {}
  fs::FileLock lock_;  // dropping it removes the file and releases the lock
};

struct RunLock::Attempt {
  std::optional<RunLock> lock;        // set when this process now holds it
  std::optional<LockBody> holder;     // when busy: the live holder's body (if readable)
  std::optional<LockBody> reclaimed;  // when taken: the body a dead holder left
  bool reclaimed_empty = false;       // when taken: a dead holder left a body lore cannot read
};

// What `lore status` shows: the lock's body when the file exists, with
// `alive` true when its holder is judged alive (fs::Judge, without taking the
// lock, since a probe could make a real starter think it busy): its process
// runs on this host, or it is another host's lock, which is assumed alive.
struct LockView {
  LockBody body;
  bool alive = false;
};
Result<std::optional<LockView>> InspectRunLock(const store::Store& store);

}  // namespace lore::consolidate
