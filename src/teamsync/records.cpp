#include "teamsync/records.h"

#include <nlohmann/json.hpp>

#include "doc/slug.h"
#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/store/layout.h"
#include "lore/teamsync/team.h"
#include "text/hash.h"

namespace lore::teamsync {
namespace {

constexpr std::string_view kFolders[] = {"memory/decisions/", "memory/requests/", "knowledge/"};
constexpr const char* kRepair = "remove it: the next 'lore sync' compares every record again";

bool SlugFile(std::string_view name) {
  return name.size() > 3 && name.substr(name.size() - 3) == ".md" &&
         doc::IsValidSlug(name.substr(0, name.size() - 3));
}

}  // namespace

std::string ContentVersion(std::string_view bytes) { return text::Hex(text::Fnv1a64(bytes)); }

bool IsSharedRecord(std::string_view rel) {
  if (rel == store::kSummaryFile) return true;
  for (std::string_view f : kFolders) {
    if (rel.substr(0, f.size()) == f) {
      std::string_view name = rel.substr(f.size());
      return name.find('/') == std::string_view::npos && SlugFile(name);
    }
  }
  return false;
}

std::vector<std::string> ListRecordFiles(const std::string& store_dir) {
  std::vector<std::string> out;
  auto st = fs::LStat(fs::Join(store_dir, store::kSummaryFile));
  if (st && S_ISREG(st->st_mode)) out.emplace_back(store::kSummaryFile);
  for (std::string_view f : kFolders) {
    std::string dir = fs::Join(store_dir, f.substr(0, f.size() - 1));
    auto entries = fs::WalkTree(dir);
    if (!entries) continue;
    for (const auto& e : *entries) {
      if (e.type != fs::EntryType::kFile || e.rel.find('/') != std::string::npos) continue;
      if (SlugFile(e.rel)) out.push_back(std::string(f) + e.rel);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

RecordAction Decide(const std::string& local, const std::string& base, const std::string& remote) {
  if (local == remote) return local.empty() ? RecordAction::kNone : RecordAction::kAgree;
  if (local.empty()) return remote != base ? RecordAction::kPull : RecordAction::kNone;
  if (remote == base) return RecordAction::kPush;
  if (local == base) return RecordAction::kPull;
  return RecordAction::kConflict;
}

Result<RecordState> LoadRecordState(const std::string& path) {
  RecordState out;
  if (!fs::Exists(path)) return out;
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  LORE_ASSIGN(SortedJson v, json::Parse(text, json::Limits{size_t{64} << 20}, {path, 1, kRepair}));
  for (const char* part : {"synced", "conflicts"}) {
    const auto* m = json::Find(v, part);
    if (m == nullptr) continue;
    if (!m->is_object()) return Fail(ErrorCode::kCorrupt, "not a records state", path, 1, kRepair);
    for (const auto& [rel, ver] : m->items()) {
      if (!ver.is_string() || !IsSharedRecord(rel)) {
        return Fail(ErrorCode::kCorrupt, "not a records state", path, 1, kRepair);
      }
      (std::string(part) == "synced" ? out.synced : out.conflicts)[rel] = ver.get<std::string>();
    }
  }
  return out;
}

Status SaveRecordState(const std::string& path, const RecordState& state) {
  SortedJson v = {{"synced", state.synced}, {"conflicts", state.conflicts}};
  LORE_TRY(fs::MakeDirs(fs::Dirname(path), 0700));
  return fs::WriteFileAtomic(path, v.dump(1) + "\n");
}

std::string ConflictRel(std::string_view rel, std::string_view machine) {
  std::string base(rel.substr(0, rel.size() - 3));
  return "team/conflicts/" + base + "." + std::string(machine) + ".md";
}

std::vector<Conflict> ListConflicts(const std::string& store_dir) {
  std::vector<Conflict> out;
  auto entries = fs::WalkTree(fs::Join(TeamDir(store_dir), "conflicts"));
  if (!entries) return out;
  for (const auto& e : *entries) {
    if (e.type != fs::EntryType::kFile || e.rel.size() < 4) continue;
    std::string_view stem = std::string_view(e.rel).substr(0, e.rel.size() - 3);
    size_t dot = stem.rfind('.');
    if (dot == std::string_view::npos || e.rel.substr(e.rel.size() - 3) != ".md") continue;
    std::string record = std::string(stem.substr(0, dot)) + ".md";
    std::string machine(stem.substr(dot + 1));
    if (!IsSharedRecord(record) || !IsMachineId(machine)) continue;
    out.push_back(Conflict{"team/conflicts/" + e.rel, record, machine});
  }
  std::sort(out.begin(), out.end(),
            [](const Conflict& a, const Conflict& b) { return a.copy_rel < b.copy_rel; });
  return out;
}

}  // namespace lore::teamsync
