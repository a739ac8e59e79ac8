#include "archive/import_settings.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <optional>

#include "fs/atomic_file.h"
#include "lore/config/config.h"
#include "lore/consolidate/settings.h"
#include "lore/fs/fd.h"
#include "lore/store/layout.h"

namespace lore::archive {
namespace {

constexpr std::string_view kConfig = store::kConfigFile;

// The settings that change what runs or where the store's data goes: an
// import that applies the archive's config.toml announces each one it
// changes. `fallback_key`, when set, is the setting whose value is this
// one's default.
struct Watched {
  const char* name;
  std::string fallback;
  const char* fallback_key = nullptr;
};

std::vector<Watched> WatchedSettings() {
  consolidate::Settings d;
  return {{"llm.base_url", d.llm_base_url},
          {"llm.api_key_env", d.llm_api_key_env},
          {"memory.consolidation.engine", d.engine},
          {"memory.consolidation_model", ""},
          {"memory.extract_engine", "rules"},
          {"memory.extract_model", "", "memory.consolidation_model"},
          {"team.url", ""}};
}

// The setting an archive may never change: the team identity of this store.
constexpr const char* kMachineId = "team.machine_id";

// `w`'s value in `c` (its default when unset); an Error when ill-typed.
Result<std::string> ValueOf(const config::Config& c, const Watched& w) {
  std::string fallback = w.fallback;
  if (w.fallback_key) {
    LORE_ASSIGN(fallback, c.Get(config::Key<std::string>{w.fallback_key, ""}));
  }
  return c.Get(config::Key<std::string>{w.name, fallback});
}

std::string Shown(const std::string& value) { return value.empty() ? "unset" : "'" + value + "'"; }

// An error about the archive's config.toml, named inside `archive`.
Error InArchive(Error e, const std::string& archive) {
  e.what += " (in archive " + archive + ")";
  return e;
}

Result<std::optional<std::string>> ReadIfThere(const std::string& path) {
  auto text = fs::ReadFile(path, fs::Kind::kConfig);
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
  LORE_TRY(fs::RefuseSymlink(own, kConfig));
  LORE_ASSIGN(auto bytes, ReadIfThere(own));
  if (!bytes) return Ok();
  LORE_TRY(fs::WriteFileAtomic(imported, *bytes, 0600));
  if (auto st = fs::LStat(own)) {
    struct timespec times[2] = {st->st_mtim, st->st_mtim};
    ::utimensat(AT_FDCWD, imported.c_str(), times, AT_SYMLINK_NOFOLLOW);
  }
  return Ok();
}

// Refuses an archive whose settings would give this store another team
// identity: two stores must never share one (docs/team.md).
Status KeepIdentity(const config::Config& incoming, const Result<config::Config>& current,
                    const std::string& archive) {
  const config::Key<std::string> key{kMachineId, ""};
  LORE_ASSIGN(std::string now, incoming.Get(key));
  std::string was;
  if (current) {
    LORE_ASSIGN(was, current->Get(key));
  }
  if (now == was) return Ok();
  return tl::unexpected(InArchive(
      incoming.ValueError(kMachineId,
                          "the archive's config.toml sets [team] machine_id to " + Shown(now) +
                              " (this store's is " + Shown(was) +
                              "): a machine's team identity never travels",
                          "import without --with-config and set [team] by hand, with this "
                          "machine's own machine_id (or none)"),
      archive));
}

Status Compare(const std::string& temp, const std::string& dir, const std::string& archive,
               ImportReport* report) {
  std::string imported_path = fs::Join(temp, kConfig);
  LORE_ASSIGN(auto text, ReadIfThere(imported_path));
  config::Config incoming = config::Config::Defaults();
  if (text) {
    auto parsed = config::Config::Parse(*text, "store/config.toml");
    if (!parsed) {
      Error e = InArchive(parsed.error(), archive);
      e.repair = "fix config.toml in the archive, or import without --with-config";
      return tl::unexpected(e);
    }
    incoming = std::move(*parsed);
    report->config = "applied";
  }
  auto current = config::Config::Load(fs::Join(dir, kConfig));
  LORE_TRY(KeepIdentity(incoming, current, archive));
  for (const Watched& w : WatchedSettings()) {
    auto now = ValueOf(incoming, w);
    if (!now) return tl::unexpected(InArchive(now.error(), archive));
    std::optional<std::string> was;
    if (current) {
      if (auto v = ValueOf(*current, w)) was = *v;
    }
    if (was && *was == *now) continue;
    report->setting_changes.push_back(std::string(w.name) + " is now " + Shown(*now) + " (was " +
                                      (was ? Shown(*was) : std::string("unreadable")) + ")");
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
  for (std::string_view rel : {store::kSummaryFile, store::kIndexFile}) {
    auto after = fs::ReadFile(fs::Join(temp, rel), fs::Kind::kArchive);
    if (!after) continue;
    auto before = fs::ReadFile(fs::Join(dir, rel), fs::Kind::kArchive);
    if (!before) {
      out.push_back(std::string(rel) + " (new)");
    } else if (*before != *after) {
      out.push_back(std::string(rel) + " (replaced)");
    }
  }
  return out;
}

}  // namespace lore::archive
