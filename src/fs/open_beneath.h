// The fallback of fs::OpenBeneath where the kernel lacks openat2(2), exposed
// for its test.
#pragma once

#include <sys/types.h>

#include <string_view>

namespace lore::fs::internal {

// Opens `rel` beneath the directory open as `rootfd`, one component at a time
// with openat(O_NOFOLLOW): every folder with O_DIRECTORY, the last component
// with `flags`. Returns the descriptor, or -1 with errno set (ELOOP when a
// component is a symlink).
int OpenByWalk(int rootfd, std::string_view rel, int flags, mode_t mode);

}  // namespace lore::fs::internal
