// Repository identity: normalising a git remote and turning it into the
// file-system-safe key that names a store (docs/formats.md).
#pragma once

#include <string>
#include <string_view>

#include "fs/temp_name.h"
#include "lore/error.h"

namespace lore::store {

// Trims whitespace, drops a trailing ".git", turns "user@host:path" and
// "scheme://[user@]host[:port]/path" into "host/path"; anything else stays.
std::string NormaliseRemote(std::string_view remote);

// The longest key: a folder name may have 255 bytes on the file systems lore
// runs on (NAME_MAX), and lore's hidden siblings of a store
// (.<key>.replaced.<pid>.<random>, fs::TempPath) add up to
// fs::kMaxTempDecoration to it.
inline constexpr size_t kMaxKeyBytes = 255 - fs::kMaxTempDecoration;

// Replaces every run of characters outside [A-Za-z0-9._-] by '_' and strips
// leading and trailing '.', '_' and '-'. An empty result is an error, and so
// is a key longer than kMaxKeyBytes (the repair names the limit and how to
// use a shorter remote).
Result<std::string> KeyFromIdentity(std::string_view identity);

// The identity as a store records it (docs/capture.md, "One store per
// repository"): repeated characters outside [A-Za-z0-9._-] written once and
// the ends trimmed as the key's are, so that spellings of one remote agree
// ("host/a/b/" and "host/a//b" are "host/a/b") while two remotes that the key
// cannot tell apart ("host/a/b_c" and "host/a_b/c") stay different.
std::string RecordedIdentity(std::string_view identity);

}  // namespace lore::store
