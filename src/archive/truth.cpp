#include "lore/archive/archive.h"
#include "lore/teamsync/team.h"

namespace lore::archive {

bool IsMachineLocal(const std::string& rel) {
  // Locks: proposals-write.lock, team/sync.lock, the extract cursors' locks.
  constexpr std::string_view kLock = ".lock";
  if (rel.size() >= kLock.size() &&
      rel.compare(rel.size() - kLock.size(), kLock.size(), kLock) == 0)
    return true;
  return teamsync::IsMachineState(rel);
}

bool IsTruth(const std::string& rel) {
  if (rel.empty()) return false;
  // The derived search index and its SQLite companions.
  if (rel == "index.sqlite" || rel.rfind("index.sqlite-", 0) == 0) return false;
  // What recall keeps for itself: the fold of usage.jsonl (derived) and
  // which files each session was told about (this machine's sessions).
  if (rel == "recall" || rel.rfind("recall/", 0) == 0) return false;
  // Settings an import kept aside: the store's own settings are config.toml.
  if (rel == kImportedConfig) return false;
  if (IsMachineLocal(rel)) return false;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    if (end == start || rel[start] == '.') return false;  // empty or hidden component
    start = end + 1;
  }
  return true;
}

}  // namespace lore::archive
