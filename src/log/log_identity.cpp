#include "log/log_identity.h"

#include <fcntl.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/log/checked_log.h"
#include "text/hash.h"

namespace lore::log {
namespace {

constexpr const char* kAttribute = "user.lore.check";
constexpr const char* kMagic = "lore-log-check-v2";

uint64_t Checksum(const Identity& id, std::string_view log) {
  uint64_t h = text::Fnv1a64(log);
  for (uint64_t v : {id.dev, id.ino, id.size, static_cast<uint64_t>(id.mtime_ns),
                     static_cast<uint64_t>(id.ctime_ns), static_cast<uint64_t>(id.lines),
                     static_cast<uint64_t>(id.ends_with_newline)}) {
    h = text::Fnv1aMix(h, v);
  }
  return h;
}

// One line of numbers; the cache file adds the log's path on a second line
// (an attribute belongs to its file and needs none).
std::string Serialise(const Identity& id, std::string_view log) {
  char buf[256];
  int n = std::snprintf(buf, sizeof buf,
                        "%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 " %" PRId64
                        " %d %" PRIu64 "\n",
                        kMagic, id.dev, id.ino, id.size, id.mtime_ns, id.ctime_ns, id.lines,
                        id.ends_with_newline ? 1 : 0, Checksum(id, log));
  std::string out(buf, static_cast<size_t>(n));
  if (!log.empty()) out.append(log).push_back('\n');
  return out;
}

bool Parse(std::string_view text, std::string_view log, Identity* id) {
  size_t eol = text.find('\n');
  if (eol == std::string_view::npos) return false;
  std::string first(text.substr(0, eol));
  std::string_view rest = text.substr(eol + 1);
  if (!log.empty() &&
      (rest.size() != log.size() + 1 || rest.substr(0, log.size()) != log || rest.back() != '\n')) {
    return false;
  }
  if (log.empty() && !rest.empty()) return false;
  char magic[32];
  uint64_t dev, ino, size, sum;
  int64_t mtime, ctime, lines;
  int nl;
  if (std::sscanf(first.c_str(),
                  "%31s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNd64 " %" SCNd64
                  " %d %" SCNu64,
                  magic, &dev, &ino, &size, &mtime, &ctime, &lines, &nl, &sum) != 9) {
    return false;
  }
  if (std::string_view(magic) != kMagic) return false;
  Identity r{dev, ino, size, mtime, ctime, lines, nl != 0};
  if (Checksum(r, log) != sum) return false;
  *id = r;
  return true;
}

std::optional<std::string> ReadSmallFile(const std::string& path) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) return std::nullopt;
  char buf[8192];
  ssize_t n = ::read(fd->get(), buf, sizeof buf);
  if (n <= 0) return std::nullopt;
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

bool Identity::SameFile(const Identity& o, bool with_ctime) const {
  return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns &&
         (!with_ctime || ctime_ns == o.ctime_ns);
}

Identity IdentityOf(const struct stat& st) {
  Identity id;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.size = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  id.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return id;
}

std::string CacheFileFor(const std::string& cache_dir, const std::string& log) {
  return fs::Join(cache_dir, text::Hex(text::Fnv1a64(log)) + ".check");
}

std::optional<Identity> Recall(int fd, const LogPaths& paths, const Identity& now) {
  Identity id;
  if (paths.use_attribute) {
    char buf[256];
    ssize_t n = ::fgetxattr(fd, kAttribute, buf, sizeof buf);
    if (n > 0 && Parse(std::string_view(buf, static_cast<size_t>(n)), {}, &id) &&
        id.SameFile(now, /*with_ctime=*/false)) {
      return id;
    }
  }
  if (paths.cache_dir.empty()) return std::nullopt;
  auto text = ReadSmallFile(CacheFileFor(paths.cache_dir, paths.log));
  if (text && Parse(*text, paths.log, &id) && id.SameFile(now, /*with_ctime=*/true)) return id;
  return std::nullopt;
}

Memory Remember(int fd, const LogPaths& paths, const Identity& id) {
  if (paths.use_attribute) {
    std::string value = Serialise(id, {});
    if (::fsetxattr(fd, kAttribute, value.data(), value.size(), 0) == 0) return Memory::kAttribute;
  }
  if (paths.cache_dir.empty() || !fs::MakeDirs(paths.cache_dir, 0700)) return Memory::kNone;
  auto s = fs::WriteFileAtomic(CacheFileFor(paths.cache_dir, paths.log), Serialise(id, paths.log));
  return s ? Memory::kCacheFile : Memory::kNone;
}

}  // namespace lore::log
