// Swapping two paths in one step.
#pragma once

#include <string>

#include "lore/error.h"

namespace lore::fs {

// Exchanges `a` and `b` atomically (renameat2 with RENAME_EXCHANGE): both
// must exist; afterwards each name holds what the other held, and no moment
// exists where either is missing. Neither is followed if it is a symlink.
//
// Returns true when exchanged, false when this kernel or file system cannot
// exchange (EINVAL, ENOSYS, EOPNOTSUPP: older kernels, some network and FUSE
// file systems), and an error for anything else. On false nothing changed
// and the caller falls back to what its own crash recovery can finish, as
// documented at the caller: a plain rename(2) over a file target, or two
// renames of folders (old aside, new in) with a recovery step that restores
// the store if a crash falls between them. The directories are not fsynced:
// the caller calls SyncDir once it has placed everything.
Result<bool> ExchangePaths(const std::string& a, const std::string& b);

}  // namespace lore::fs
