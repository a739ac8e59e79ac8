// The team store's local side (docs/team.md): which logs sync, the [team]
// settings of config.toml, this machine's id, and where the other machines'
// lines live inside the store (`team/<machine>/<log>`). Pure logic and files:
// the database side is in src/team/ (linked only into lore-team).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::teamsync {

// The append-only logs pushed line by line (docs/formats.md).
const std::vector<std::string>& SyncedLogs();
bool IsSyncedLog(std::string_view name);

// [team] of config.toml: the libpq connection string and this machine's id.
struct Settings {
  std::string url;         // [team] url
  std::string machine_id;  // [team] machine_id, else team/machine_id (made once)
  std::string config_path;
};

// True when a libpq connection string (URI or key=value) carries a password.
bool UrlCarriesPassword(std::string_view url);
// A machine id: 1 to 64 of [a-z0-9_-], not starting with '-' or '_', not "conflicts".
bool IsMachineId(std::string_view id);

// The [team] settings, or nullopt when no url is set. Refuses a url with a
// password. Creates team/machine_id (0600, 16 random hex digits) the first
// time when [team] machine_id is not set.
Result<std::optional<Settings>> LoadSettings(const store::Store& store);

// This machine's own files in team/: its identity, its sync cursors and its
// lock. (The review batch it claimed is kReviewClaimFile, teamsync/review.h.)
inline constexpr std::string_view kMachineIdFile = "machine_id";
inline constexpr std::string_view kPushStateFile = "push-state.json";
inline constexpr std::string_view kPullStateFile = "pull-state.json";
inline constexpr std::string_view kRecordsStateFile = "records-state.json";
inline constexpr std::string_view kSyncLockFile = "sync.lock";

// True when the store-relative path `rel` is one of this machine's own files
// in team/ (above, and the claimed review batch): they never travel in an
// archive, since a store restored elsewhere is another machine, and two
// stores must never share a machine id.
bool IsMachineState(std::string_view rel);

// <store>/team, <store>/team/<machine>, <store>/team/<machine>/<log>.
std::string TeamDir(const std::string& store_dir);
std::string RemoteDir(const std::string& store_dir, std::string_view machine);
std::string RemoteLog(const std::string& store_dir, std::string_view machine, std::string_view log);

// The machines whose lines were pulled into this store (folders of team/
// named by a machine id; symlinks and other entries ignored), sorted.
std::vector<std::string> RemoteMachines(const std::string& store_dir);
// The rel paths ("team/<machine>/<log>") of the pulled copies of `log` that
// exist as regular files, in RemoteMachines order.
std::vector<std::string> RemoteCopies(const std::string& store_dir, std::string_view log);

}  // namespace lore::teamsync
