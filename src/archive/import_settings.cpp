#include "archive/import_settings.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <optional>

#include "lore/config/config.h"
#include "lore/consolidate/settings.h"
#include "lore/fs/atomic_file.h"
#include "lore/fs/fd.h"

namespace lore::archive {
namespace {

constexpr const char* kConfig = "config.toml";

// The settings an archive could use to send the store's memory elsewhere.
struct Watched {
  const char* name;
  std::string fallback;
};

std::vector<Watched> WatchedSettings() {
  consolidate::Settings d;
  return {{"llm.base_url", d.llm_base_url},
          {"llm.api_key_env", d.llm_api_key_env},
          {"memory.consolidation.engine", d.engine}};
}

// `name`'s value in `c` (its default when unset); nullopt when ill-typed.
std::optional<std::string> ValueOf(const config::Config& c, const Watched& w) {
  auto v = c.Get(config::Key<std::string>{w.name, w.fallback});
  if (!v) return std::nullopt;
  return *v;
}

Result<std::optional<std::string>> ReadIfThere(const std::string& path) {
  auto text = fs::ReadFile(path);
  if (text) return std::optional<std::string>(std::move(*text));
  if (text.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
  return tl::unexpected(text.error());
}

// The archive's settings are not read: moved aside, and the store's own kept.
Status KeepAside(const std::string& temp, const std::string& dir, ImportReport* report) {
  std::string imported = fs::Join(temp, kConfig);
  if (fs::Exists(imported)) {
    std::string aside = fs::Join(temp, kImportedConfig);
    if (::rename(imported.c_str(), aside.c_str()) != 0) {
      return tl::unexpected(
          fs::ErrnoError(errno, "cannot set the archive's settings aside", aside));
    }
    report->config = "kept-aside";
  }
  std::string own = fs::Join(dir, kConfig);
  LORE_TRY(fs::RefuseSymlink(own, "config.toml"));
  LORE_ASSIGN(auto bytes, ReadIfThere(own));
  if (!bytes) return Ok();
  LORE_TRY(fs::WriteFileAtomic(imported, *bytes, 0600));
  if (auto st = fs::LStat(own)) {
    struct timespec times[2] = {st->st_mtim, st->st_mtim};
    ::utimensat(AT_FDCWD, imported.c_str(), times, AT_SYMLINK_NOFOLLOW);
  }
  return Ok();
}

Status Compare(const std::string& temp, const std::string& dir, const std::string& archive,
               ImportReport* report) {
  std::string imported_path = fs::Join(temp, kConfig);
  LORE_ASSIGN(auto text, ReadIfThere(imported_path));
  config::Config incoming = config::Config::Defaults();
  if (text) {
    auto parsed = config::Config::Parse(*text, "store/config.toml");
    if (!parsed) {
      Error e = parsed.error();
      e.what += " (in archive " + archive + ")";
      e.repair = "fix config.toml in the archive, or import without --with-config";
      return tl::unexpected(e);
    }
    incoming = std::move(*parsed);
    report->config = "applied";
  }
  auto current = config::Config::Load(fs::Join(dir, kConfig));
  for (const Watched& w : WatchedSettings()) {
    std::optional<std::string> now = ValueOf(incoming, w);
    if (!now) {
      auto bad = incoming.Get(config::Key<std::string>{w.name, w.fallback});
      Error e = bad.error();
      e.what += " (in archive " + archive + ")";
      return tl::unexpected(e);
    }
    std::optional<std::string> was = current ? ValueOf(*current, w) : std::nullopt;
    if (was && *was == *now) continue;
    report->setting_changes.push_back(std::string(w.name) + " is now '" + *now + "' (was " +
                                      (was ? "'" + *was + "'" : std::string("unreadable")) + ")");
  }
  return Ok();
}

}  // namespace

Status GuardSettings(const std::string& temp, const std::string& dir, bool with_config,
                     const std::string& archive, ImportReport* report) {
  if (!with_config) return KeepAside(temp, dir, report);
  return Compare(temp, dir, archive, report);
}

std::vector<std::string> InjectedChanges(const std::string& dir, const std::string& temp) {
  std::vector<std::string> out;
  for (const char* rel : {"memory/summary.md", "okf/index.md"}) {
    auto after = fs::ReadFile(fs::Join(temp, rel));
    if (!after) continue;
    auto before = fs::ReadFile(fs::Join(dir, rel));
    if (!before) {
      out.push_back(std::string(rel) + " (new)");
    } else if (*before != *after) {
      out.push_back(std::string(rel) + " (replaced)");
    }
  }
  return out;
}

}  // namespace lore::archive
