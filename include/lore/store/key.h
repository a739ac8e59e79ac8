// Repository identity: normalising a git remote and turning it into the
// file-system-safe key that names a store (FORMATS.md section 1).
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::store {

// Trims whitespace, drops a trailing ".git", turns "user@host:path" and
// "scheme://[user@]host[:port]/path" into "host/path"; anything else stays.
std::string NormaliseRemote(std::string_view remote);

// Replaces every run of characters outside [A-Za-z0-9._-] by '_' and strips
// leading and trailing '.', '_' and '-'. An empty result is an error.
Result<std::string> KeyFromIdentity(std::string_view identity);

}  // namespace lore::store
