// A repository's store: where it lives, its files, creating its skeleton and
// checking that it is sound (docs/formats.md and docs/capture.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/log/checked_log.h"
#include "lore/store/layout.h"
#include "lore/text/time.h"

namespace lore::store {

// Who lore is acting as: itself, or a drop-in for seed 003's reviewer-memory
// script (LORE_COMPAT=reviewer-memory, or run under that name; docs/capture.md).
enum class Flavor { kLore, kReviewerMemory };

// The environment variables that decide where stores live. Empty means unset.
struct Env {
  std::string lore_home;          // $LORE_HOME
  std::string xdg_config_home;    // $XDG_CONFIG_HOME
  std::string home;               // $HOME
  std::string xdg_cache_home;     // $XDG_CACHE_HOME
  Flavor flavor = Flavor::kLore;  // from $LORE_COMPAT

  static Env FromProcess();
};

// The root holding all stores: $LORE_HOME, else $XDG_CONFIG_HOME/lore, else
// $HOME/.config/lore (as reviewer-memory: $LORE_HOME, else
// $HOME/.config/reviewer-memory); always absolute (relative values are taken
// against the current directory).
Result<std::string> StoresRoot(const Env& env);

// Where lore keeps what it may forget: $XDG_CACHE_HOME/lore, else
// $HOME/.cache/lore; empty when neither is set.
std::string CacheRoot(const Env& env);

// What a <repo> argument names: the normalised origin of a checkout, the
// checkout's top-level directory, the path itself, or a remote URL; an error
// when the checkout's git config cannot be read.
Result<std::string> ResolveIdentity(std::string_view repo_arg);

// Whether a check reads raw.jsonl (skipped when the caller is about to
// append, since the append validates it under its exclusive lock).
enum class RawCheck { kValidate, kSkip };

class Store {
 public:
  // Resolves `repo_arg` to its key and paths, writing nothing. The argument
  // is a path inside a git checkout (with or without a store yet), a remote
  // URL (scheme://…, [user@]host:path, host.tld/path), or else names a store
  // that exists (its key, a folder whose store was made before): any other
  // path (a typo, a folder that is no checkout) is kNotFound, naming it and
  // the repair, so that no verb answers from an empty store.
  //
  // `folder` says who names it. kNamed: a person typed it, and a folder that
  // is no checkout and has no store is most likely a typo. kWorkedIn: an
  // agent's hook, its MCP server or an extract names the folder the agent
  // works in, and that folder has its store whatever it is (a home folder, a
  // scratch folder): its key is the folder's path.
  enum class Folder { kNamed, kWorkedIn };
  static Result<Store> Locate(std::string_view repo_arg, const Env& env,
                              Folder folder = Folder::kNamed);
  // A store at a known directory (tests, import).
  static Store AtDir(std::string root, std::string key);

  // Creates the skeleton when the store directory is missing (atomically:
  // built aside and renamed into place), then checks the store as Check()
  // does. The index's `updated` date comes from `now`. A store that does not
  // record its repository yet records this one (CheckRemote).
  Status Ensure(text::TimePoint now, RawCheck raw = RawCheck::kValidate) const;
  // Checks an existing store: no symlinks in its paths, raw.jsonl and
  // okf/index.md present and regular, the index's frontmatter, and every raw
  // line (cheaply when raw.jsonl is unchanged since lore last validated it).
  Status Check(RawCheck raw = RawCheck::kValidate) const;
  // Two repositories whose remotes map to one key ("gitlab.com/foo/bar_baz"
  // and "gitlab.com/foo_bar/baz") must not share one memory: a store records
  // the repository it was made for (RecordedIdentity, in the extended
  // attribute user.lore.remote of its folder, so that a reviewer-memory
  // store holds no file but its own), and a store located for another one is
  // refused, naming both. With `adopt`, a store that records none yet (made
  // before this check) records this one. Nothing to check for a store made
  // by AtDir, or on a file system without extended attributes.
  Status CheckRemote(bool adopt) const;
  // Like Check() but collects every problem instead of stopping at the first.
  // The leftovers of writers that died are not problems of the store: see
  // store/leftovers.h (`lore check` prints them as warnings).
  std::vector<Error> CheckAll() const;

  const std::string& key() const { return key_; }
  const std::string& root() const { return root_; }  // the stores' root
  const std::string& dir() const { return dir_; }    // <root>/<key>
  std::string Path(std::string_view rel) const;      // <dir>/<rel>
  std::string raw_path() const { return Path(kRawFile); }
  std::string okf_dir() const { return Path(kOkfDir); }
  std::string index_path() const { return Path(kIndexFile); }
  std::string config_path() const { return Path(kConfigFile); }
  std::string learnings_path() const { return Path(kLearningsFile); }
  std::string proposals_path() const { return Path(kProposalsFile); }
  std::string events_path() const { return Path(kEventsFile); }
  log::LogPaths raw_log() const;

  // True when okf/index.md has a non-blank body after its frontmatter.
  Result<bool> HasContent() const;

 private:
  Store(std::string root, std::string key, const Env* env = nullptr);
  Status CheckPaths() const;
  Status CheckIndex() const;
  Status CreateSkeleton(text::TimePoint now) const;

  std::string root_, key_, dir_;
  std::string identity_;   // RecordedIdentity of what Locate resolved; empty: none
  std::string cache_dir_;  // for raw.jsonl's validation memory; empty: none
  Flavor flavor_ = Flavor::kLore;
};

}  // namespace lore::store
