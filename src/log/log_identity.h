// What lore remembers about a log it last saw valid, and where it keeps it.
//
// The memory never shows as a file in the store: it is an extended attribute
// (`user.lore.check`) on the log itself. Where the file system refuses one
// (no xattr support, a file lore may read but not change), it goes to a
// fallback file in a cache folder outside the store
// (`$XDG_CACHE_HOME/lore/raw-check/<hash of the log's path>`), which names
// the log's path and identity; a missing, damaged or foreign memory only
// costs one full check.
//
// Setting an attribute changes the log's ctime, so an attribute is matched
// on device, inode, size and mtime (nanoseconds); the fallback file is
// matched on ctime as well.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>

namespace lore::log {

struct LogPaths;

struct Identity {
  uint64_t dev = 0, ino = 0, size = 0;
  int64_t mtime_ns = 0, ctime_ns = 0;
  int64_t lines = 0;
  bool ends_with_newline = true;

  bool SameFile(const Identity& o, bool with_ctime) const;
};

Identity IdentityOf(const struct stat& st);

// Where an identity was remembered.
enum class Memory { kNone, kAttribute, kCacheFile };

// The remembered identity of the open log `fd` when it still matches `now`
// (the log's current stat), else nullopt.
std::optional<Identity> Recall(int fd, const LogPaths& paths, const Identity& now);

// Remembers `id` for the open log `fd`: as an attribute, else in the cache
// file. Best effort: failing costs a full check next time.
Memory Remember(int fd, const LogPaths& paths, const Identity& id);

// The fallback file for `log` inside the folder `cache_dir`.
std::string CacheFileFor(const std::string& cache_dir, const std::string& log);

}  // namespace lore::log
