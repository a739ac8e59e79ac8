#include "lore/store/store.h"

#include <sys/stat.h>
#include <sys/xattr.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "doc/frontmatter.h"
#include "fs/atomic_file.h"
#include "fs/temp_name.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/store/layout.h"
#include "store/git_config.h"
#include "store/key.h"
#include "store/leftovers.h"
#include "text/trim.h"

namespace lore::store {
namespace {

std::string GetEnv(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

constexpr const char* kBadRawLineRepair =
    "fix that line's JSON by hand or move it to another file (raw.jsonl is append-only: lore "
    "never rewrites it)";

constexpr const char* kMissingRawRepair =
    "restore raw.jsonl from a backup (or create it empty if nothing was ever captured)";
constexpr const char* kMissingIndexRepair =
    "restore okf/index.md, or recreate it with the lines ---, title: ..., updated: YYYY-MM-DD, "
    "tags: [], ---";

Status RequireRegular(const std::string& path, std::string_view role, std::string_view repair) {
  auto st = fs::LStat(path);
  if (!st) {
    if (st.error().code == ErrorCode::kNotFound) {
      return Fail(ErrorCode::kNotFound, "missing " + std::string(role) + " in an existing store",
                  path, 0, std::string(repair));
    }
    return tl::unexpected(st.error());
  }
  if (S_ISLNK(st->st_mode)) {
    return Fail(ErrorCode::kSymlink, std::string(role) + " is a symlink", path, 0,
                "replace the symlink with a real file (lore refuses symlinks in store paths)");
  }
  if (!S_ISREG(st->st_mode)) {
    return Fail(ErrorCode::kCorrupt, std::string(role) + " is not a regular file", path, 0,
                "move it away and restore the file");
  }
  return Ok();
}

constexpr const char* kRemoteAttribute = "user.lore.remote";

// The identity recorded on folder `dir`: nullopt when none is (or the file
// system keeps no attributes), or an Error when it cannot be read.
Result<std::optional<std::string>> RecordedRemote(const std::string& dir) {
  char buf[4096];
  const ssize_t n = ::lgetxattr(dir.c_str(), kRemoteAttribute, buf, sizeof buf);
  if (n >= 0) return std::optional<std::string>(std::string(buf, static_cast<size_t>(n)));
  if (errno == ENODATA || errno == ENOTSUP || errno == ENOENT) return std::nullopt;
  return tl::unexpected(fs::ErrnoError(errno, "cannot read the repository it was made for", dir));
}

}  // namespace

Env Env::FromProcess() {
  Flavor flavor =
      GetEnv("LORE_COMPAT") == "reviewer-memory" ? Flavor::kReviewerMemory : Flavor::kLore;
  return Env{GetEnv("LORE_HOME"), GetEnv("XDG_CONFIG_HOME"), GetEnv("HOME"),
             GetEnv("XDG_CACHE_HOME"), flavor};
}

std::string CacheRoot(const Env& env) {
  if (!env.xdg_cache_home.empty()) return fs::Absolute(fs::Join(env.xdg_cache_home, "lore"));
  if (!env.home.empty()) return fs::Absolute(fs::Join(env.home, ".cache/lore"));
  return {};
}

Result<std::string> StoresRoot(const Env& env) {
  if (!env.lore_home.empty()) return fs::Absolute(env.lore_home);
  if (env.flavor == Flavor::kReviewerMemory) {
    // The reference script's own place, whatever XDG_CONFIG_HOME says.
    if (!env.home.empty()) return fs::Absolute(fs::Join(env.home, ".config/reviewer-memory"));
    return Fail(ErrorCode::kInvalidInput, "no store location: HOME is unset", "", 0,
                "set HOME (the stores live in ~/.config/reviewer-memory)");
  }
  if (!env.xdg_config_home.empty()) return fs::Absolute(fs::Join(env.xdg_config_home, "lore"));
  if (!env.home.empty()) return fs::Absolute(fs::Join(env.home, ".config/lore"));
  return Fail(ErrorCode::kInvalidInput,
              "no store location: LORE_HOME, XDG_CONFIG_HOME and HOME are all unset", "", 0,
              "set LORE_HOME to the folder that should hold lore's stores");
}

namespace {

// What a <repo> argument turned out to be.
enum class ArgKind {
  kCheckout,  // a path inside a git checkout
  kRemote,    // not a path on disk, but written as a remote
  kUnknown,   // a path that is no checkout (missing, or a plain folder or file)
};

// True when `arg`, which names nothing on disk, is written as a git remote:
// scheme://…, [user@]host:path (a colon before any slash), or host/path
// with a dot in the host ("github.com/acme/widgets", as NormaliseRemote
// writes one). "./x", "../x", "/x", "~/x" and "src/x" are paths.
bool LooksLikeRemote(std::string_view arg) {
  if (arg.empty()) return false;
  if (arg.find("://") != std::string_view::npos) return true;
  const size_t colon = arg.find(':');
  const size_t slash = arg.find('/');
  if (colon != std::string_view::npos && colon > 0 &&
      (slash == std::string_view::npos || colon < slash)) {
    return true;
  }
  if (slash == std::string_view::npos || slash == 0) return false;
  const std::string_view host = arg.substr(0, slash);
  return host.front() != '.' && host.front() != '~' && host.find('.') != std::string_view::npos;
}

Result<std::string> Resolve(std::string_view repo_arg, ArgKind* kind) {
  std::string arg(repo_arg);
  struct stat st;
  if (!arg.empty() && ::stat(arg.c_str(), &st) == 0) {
    std::string abs = fs::Absolute(arg);
    if (auto checkout = FindCheckout(abs)) {
      *kind = ArgKind::kCheckout;
      LORE_ASSIGN(std::optional<std::string> url, OriginUrl(*checkout));
      if (url) return NormaliseRemote(*url);
      return checkout->top;
    }
    *kind = ArgKind::kUnknown;
    return abs;
  }
  *kind = LooksLikeRemote(text::Trim(arg)) ? ArgKind::kRemote : ArgKind::kUnknown;
  return NormaliseRemote(arg);
}

// A <repo> that is neither a checkout nor written as a remote names a store
// only when that store exists (`lore status <store key>`); anything else is
// most likely a typo, which must not answer from an empty store. True when
// the argument is the store's key itself: the store is named, not a
// repository, so there is no identity to check against the store's.
Result<bool> RequireKnown(std::string_view repo_arg, ArgKind kind, const std::string& identity,
                          const std::string& root, const std::string& key, Store::Folder folder) {
  if (kind != ArgKind::kUnknown) return false;
  if (fs::LStat(fs::Join(root, key))) return text::Trim(repo_arg) == key;
  struct stat st;
  const std::string arg(repo_arg);
  const bool exists = !arg.empty() && ::stat(arg.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode) && folder == Store::Folder::kWorkedIn) return false;
  if (exists) {
    return Fail(ErrorCode::kNotFound, "not a git checkout, and lore has no store for it", identity,
                0,
                "run lore from the project's git checkout (or 'git init' this folder first), or "
                "name the repository by its remote URL (https://host/owner/repo.git)");
  }
  return Fail(ErrorCode::kNotFound, "no such checkout, remote URL or store", arg, 0,
              "check the path for a typo; lore takes a git checkout's path, a remote URL "
              "(https://host/owner/repo.git, git@host:owner/repo.git) or a store's key (a folder "
              "of " +
                  root + ")");
}

}  // namespace

Result<std::string> ResolveIdentity(std::string_view repo_arg) {
  ArgKind kind;
  return Resolve(repo_arg, &kind);
}

Store::Store(std::string root, std::string key, const Env* env)
    : root_(std::move(root)), key_(std::move(key)), dir_(fs::Join(root_, key_)) {
  if (env) {
    cache_dir_ = CacheRoot(*env);
    flavor_ = env->flavor;
  }
}

Store Store::AtDir(std::string root, std::string key) {
  return Store(std::move(root), std::move(key));
}

Result<Store> Store::Locate(std::string_view repo_arg, const Env& env, Folder folder) {
  LORE_ASSIGN(std::string root, StoresRoot(env));
  ArgKind kind;
  LORE_ASSIGN(const std::string identity, Resolve(repo_arg, &kind));
  LORE_ASSIGN(std::string key, KeyFromIdentity(identity));
  LORE_ASSIGN(const bool by_key, RequireKnown(repo_arg, kind, identity, root, key, folder));
  Store store(std::move(root), std::move(key), &env);
  store.identity_ = by_key ? std::string() : RecordedIdentity(identity);
  return store;
}

Status Store::CheckRemote(bool adopt) const {
  if (identity_.empty()) return Ok();
  LORE_ASSIGN(auto have, RecordedRemote(dir_));
  if (!have && adopt) {
    // XATTR_CREATE: of two repositories adopting the store at once, one wins
    // and the other reads the winner's below.
    if (::lsetxattr(dir_.c_str(), kRemoteAttribute, identity_.data(), identity_.size(),
                    XATTR_CREATE) == 0) {
      return Ok();
    }
    if (errno != EEXIST) return Ok();  // no attributes here (or none may be set): nothing to check
    LORE_ASSIGN(have, RecordedRemote(dir_));
  }
  if (!have || *have == identity_) return Ok();
  return Fail(ErrorCode::kInvalidInput,
              "two repositories map to store key " + key_ + ": the store was made for " + *have +
                  ", not for " + identity_,
              dir_, 0,
              "lore keeps one memory per repository: run lore for " + identity_ +
                  " with its own LORE_HOME, or give its checkout a remote of its own "
                  "(git remote set-url origin <url>); docs/capture.md");
}

std::string Store::Path(std::string_view rel) const { return fs::Join(dir_, rel); }

log::LogPaths Store::raw_log() const {
  // What was validated is remembered on raw.jsonl itself (an attribute), else
  // in the cache: never as a file in the store. Earlier versions kept it in
  // .lore-raw.check, removed on the next full check.
  std::string cache = cache_dir_.empty() ? "" : fs::Join(cache_dir_, "raw-check");
  return log::LogPaths{raw_path(), cache, kBadRawLineRepair, Path(".lore-raw.check"),
                       /*use_attribute=*/true};
}

Status Store::CheckPaths() const {
  // The store directory, its parent (the stores' root) and grandparent.
  LORE_TRY(fs::RefuseSymlink(dir_, "store directory"));
  LORE_TRY(fs::RefuseSymlink(root_, "stores root"));
  LORE_TRY(fs::RefuseSymlink(fs::Dirname(root_), "parent of the stores root"));
  auto st = fs::LStat(dir_);
  if (!st) return tl::unexpected(st.error());
  if (!S_ISDIR(st->st_mode)) {
    return Fail(ErrorCode::kCorrupt, "store root is not a directory", dir_, 0,
                "move the file away so that lore can create the store");
  }
  LORE_TRY(CheckRemote(false));
  LORE_TRY(RequireRegular(raw_path(), kRawFile, kMissingRawRepair));
  LORE_TRY(fs::RefuseSymlink(okf_dir(), "okf directory"));
  LORE_TRY(RequireRegular(index_path(), kIndexFile, kMissingIndexRepair));
  return Ok();
}

Status Store::CheckIndex() const {
  LORE_ASSIGN(std::string text, fs::ReadFile(index_path(), fs::Kind::kIndexPage));
  LORE_TRY(doc::SplitFrontmatter(text, index_path()));
  return Ok();
}

Result<bool> Store::HasContent() const {
  LORE_ASSIGN(std::string text, fs::ReadFile(index_path(), fs::Kind::kIndexPage));
  LORE_ASSIGN(auto split, doc::SplitFrontmatter(text, index_path()));
  return doc::HasContent(split.body);
}

Status Store::Check(RawCheck raw) const {
  LORE_TRY(CheckPaths());
  if (raw == RawCheck::kValidate) LORE_TRY(log::Validate(raw_log()));
  return CheckIndex();
}

std::vector<Error> Store::CheckAll() const {
  std::vector<Error> out;
  auto add = [&out](Status s) {
    if (!s) out.push_back(std::move(s).error());
    return out.empty();
  };
  // Without a sound directory nothing below it can be trusted.
  if (!add(fs::RefuseSymlink(dir_, "store directory")) ||
      !add(fs::RefuseSymlink(root_, "stores root")) ||
      !add(fs::RefuseSymlink(fs::Dirname(root_), "parent of the stores root"))) {
    return out;
  }
  auto st = fs::LStat(dir_);
  if (!st) return {st.error()};
  if (!S_ISDIR(st->st_mode)) {
    return {Error{ErrorCode::kCorrupt, "store root is not a directory", dir_, 0,
                  "move the file away so that lore can create the store"}};
  }
  if (!add(CheckRemote(false))) return out;
  if (auto s = RequireRegular(raw_path(), kRawFile, kMissingRawRepair); !s) {
    out.push_back(s.error());
  } else {
    for (auto& e : log::CheckAll(raw_log())) out.push_back(std::move(e));
  }
  add(fs::RefuseSymlink(okf_dir(), "okf directory"));
  if (auto s = RequireRegular(index_path(), kIndexFile, kMissingIndexRepair); !s) {
    out.push_back(s.error());
  } else if (auto c = CheckIndex(); !c) {
    out.push_back(c.error());
  }
  return out;
}

Status Store::CreateSkeleton(text::TimePoint now) const {
  LORE_TRY(fs::MakeDirs(root_, 0700));
  std::string temp = fs::TempPath(dir_, fs::TempKind::kNew);
  if (::mkdir(temp.c_str(), 0700) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot create directory", temp));
  }
  auto build = [&]() -> Status {
    LORE_TRY(fs::WriteNewFile(fs::Join(temp, store::kRawFile), ""));
    std::string okf = fs::Join(temp, "okf");
    if (::mkdir(okf.c_str(), 0700) != 0) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot create directory", okf));
    }
    std::string title = flavor_ == Flavor::kReviewerMemory ? "Reviewer memory" : key_ + " memory";
    std::string index =
        "---\ntitle: " + title + "\nupdated: " + text::UtcDate(now) + "\ntags: []\n---\n";
    LORE_TRY(fs::WriteNewFile(fs::Join(okf, "index.md"), index));
    LORE_TRY(fs::SyncDir(okf));
    if (!identity_.empty()) {  // the repository it is for (CheckRemote); best effort
      (void)::lsetxattr(temp.c_str(), kRemoteAttribute, identity_.data(), identity_.size(), 0);
    }
    return fs::SyncDir(temp);
  };
  if (auto s = build(); !s) {
    (void)fs::RemoveTree(temp);
    return s;
  }
  if (::rename(temp.c_str(), dir_.c_str()) != 0) {
    int err = errno;
    (void)fs::RemoveTree(temp);
    // Another process created the store first: use theirs.
    if (err != EEXIST && err != ENOTEMPTY) {
      return tl::unexpected(fs::ErrnoError(err, "cannot create store", dir_));
    }
  }
  return fs::SyncDir(root_);
}

Status Store::Ensure(text::TimePoint now, RawCheck raw) const {
  LORE_TRY(fs::RefuseSymlink(fs::Dirname(root_), "parent of the stores root"));
  LORE_TRY(fs::RefuseSymlink(root_, "stores root"));
  LORE_TRY(fs::RefuseSymlink(dir_, "store directory"));
  if (!fs::Exists(dir_)) LORE_TRY(CreateSkeleton(now));
  LORE_TRY(Check(raw));
  return CheckRemote(true);
}

}  // namespace lore::store
