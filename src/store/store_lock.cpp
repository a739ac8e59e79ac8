#include "lore/store/store_lock.h"

namespace lore::store {

Result<StoreLock> StoreLock::Acquire(const std::string& dir, fs::LockMode mode,
                                     std::chrono::milliseconds timeout) {
  LORE_TRY(fs::RefuseSymlink(dir, "store directory"));
  LORE_ASSIGN(fs::FileLock lock, fs::FileLock::Acquire(dir, {mode, timeout, fs::LockTarget::kFolder,
                                                             "the store lock"}));
  return StoreLock(std::move(lock));
}

}  // namespace lore::store
