#include "fs/exchange.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>

#include <cerrno>

#include "lore/fs/fd.h"

namespace lore::fs {

Result<bool> ExchangePaths(const std::string& a, const std::string& b) {
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) return true;
  if (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) return false;
  return tl::unexpected(ErrnoError(errno, "cannot exchange " + a + " with", b));
}

}  // namespace lore::fs
