#include "lore/teamsync/team.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include "fs/atomic_file.h"
#include "lore/config/config.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/sys/random.h"
#include "lore/teamsync/review.h"
#include "teamsync/lines.h"
#include "text/trim.h"

namespace lore::teamsync {
namespace {

const config::Key<std::string> kUrl{"team.url", ""};
const config::Key<std::string> kMachineId{"team.machine_id", ""};

// "password=" at the start of `s` or after a space, '?' or '&'.
bool HasPasswordKey(std::string_view s) {
  std::string low = text::AsciiLower(s);
  for (size_t at = low.find("password"); at != std::string::npos;
       at = low.find("password", at + 1)) {
    if (at > 0 && !std::isspace(static_cast<unsigned char>(low[at - 1])) && low[at - 1] != '?' &&
        low[at - 1] != '&') {
      continue;
    }
    size_t i = at + 8;
    while (i < low.size() && std::isspace(static_cast<unsigned char>(low[i]))) ++i;
    if (i < low.size() && low[i] == '=') return true;
  }
  return false;
}

Result<std::string> MachineIdFile(const store::Store& store) {
  const std::string dir = TeamDir(store.dir());
  const std::string path = fs::Join(dir, kMachineIdFile);
  if (!fs::Exists(path)) {
    LORE_TRY(fs::MakeDirs(dir, 0700));
    char raw[8];
    sys::RandomBytes(raw, sizeof raw);
    std::string id = Hex(std::string_view(raw, sizeof raw));
    // Another sync may have made one meanwhile: its id wins.
    auto made = fs::WriteNewFile(path, id + "\n");
    if (!made && !fs::Exists(path)) return tl::unexpected(made.error());
  }
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (!IsMachineId(text)) {
    return Fail(ErrorCode::kCorrupt, "not a machine id", path, 1,
                "remove the file: lore makes a new one (this machine then pushes as a new one)");
  }
  return text;
}

}  // namespace

const std::vector<std::string>& SyncedLogs() {
  static const std::vector<std::string> kLogs = {
      std::string(store::kRawFile), std::string(store::kLearningsFile),
      std::string(store::kProposalsRejectedFile), std::string(store::kProposalsArchiveFile),
      std::string(store::kEventsFile)};
  return kLogs;
}

bool IsSyncedLog(std::string_view name) {
  const auto& logs = SyncedLogs();
  return std::find(logs.begin(), logs.end(), name) != logs.end();
}

bool UrlCarriesPassword(std::string_view url) {
  std::string low = text::AsciiLower(url);
  for (std::string_view scheme : {"postgresql://", "postgres://"}) {
    if (low.rfind(scheme, 0) != 0) continue;
    std::string_view rest = url.substr(scheme.size());
    std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
    size_t at = authority.rfind('@');
    if (at != std::string_view::npos &&
        authority.substr(0, at).find(':') != std::string_view::npos) {
      return true;
    }
    size_t q = rest.find('?');
    return q != std::string_view::npos && HasPasswordKey(rest.substr(q));
  }
  return HasPasswordKey(url);
}

bool IsMachineId(std::string_view id) {
  if (id.empty() || id.size() > 64 || id[0] == '-' || id[0] == '_') return false;
  if (id == "conflicts") return false;  // team/conflicts/ holds records kept aside
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

Result<std::optional<Settings>> LoadSettings(const store::Store& store) {
  const std::string path = store.config_path();
  LORE_ASSIGN(config::Config cfg, config::Config::Load(path));
  LORE_ASSIGN(std::string url, cfg.Get(kUrl));
  if (url.empty()) return std::optional<Settings>();
  if (UrlCarriesPassword(url)) {
    return tl::unexpected(cfg.ValueError(
        kUrl.name, "[team] url carries a password",
        "remove it from config.toml and give it through PGPASSFILE (~/.pgpass) or a service file"));
  }
  Settings s{url, "", path};
  LORE_ASSIGN(s.machine_id, cfg.Get(kMachineId));
  if (s.machine_id.empty()) {
    LORE_ASSIGN(s.machine_id, MachineIdFile(store));
  } else if (!IsMachineId(s.machine_id)) {
    return tl::unexpected(cfg.ValueError(kMachineId.name, "[team] machine_id is not a machine id",
                                         "use 1 to 64 of a-z, 0-9, '-' and '_'"));
  }
  return std::optional<Settings>(std::move(s));
}

bool IsMachineState(std::string_view rel) {
  if (rel == kReviewClaimFile) return true;
  constexpr std::string_view kTeam = "team/";
  if (rel.substr(0, kTeam.size()) != kTeam) return false;
  const std::string_view name = rel.substr(kTeam.size());
  for (std::string_view own :
       {kMachineIdFile, kPushStateFile, kPullStateFile, kRecordsStateFile, kSyncLockFile}) {
    if (name == own) return true;
  }
  return false;
}

std::string TeamDir(const std::string& store_dir) { return fs::Join(store_dir, "team"); }

std::string RemoteDir(const std::string& store_dir, std::string_view machine) {
  return fs::Join(TeamDir(store_dir), machine);
}

std::string RemoteLog(const std::string& store_dir, std::string_view machine,
                      std::string_view log) {
  return fs::Join(RemoteDir(store_dir, machine), log);
}

std::vector<std::string> RemoteMachines(const std::string& store_dir) {
  std::vector<std::string> out;
  auto entries = fs::ListDirBeneath(store_dir, "team");  // a symlinked team/ holds none
  if (!entries) return out;
  for (const auto& e : *entries) {
    if (IsMachineId(e.name) && e.is_dir) out.push_back(e.name);
  }
  return out;
}

std::vector<std::string> RemoteCopies(const std::string& store_dir, std::string_view log) {
  std::vector<std::string> out;
  for (const auto& m : RemoteMachines(store_dir)) {
    struct stat st;
    std::string rel = "team/" + m + "/" + std::string(log);
    if (::lstat(fs::Join(store_dir, rel).c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      out.push_back(std::move(rel));
    }
  }
  return out;
}

}  // namespace lore::teamsync
