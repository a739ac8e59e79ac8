// Syncing memory/knowledge records: compare-and-swap on the team's version,
// so that a record changed on two machines since their common version is
// never overwritten; the team's version is then kept under team/conflicts/.
#include "lore/team/records_sync.h"

#include <map>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "teamsync/lines.h"
#include "teamsync/records.h"

namespace lore::team {
namespace {

struct RemoteRecord {
  std::string version, machine;
};

Result<std::string> FetchContent(Conn& conn, const std::string& repo, const std::string& rel) {
  LORE_ASSIGN(PgResult r, conn.Exec("SELECT content FROM lore_records WHERE repo = $1 AND rel = $2",
                                    {repo, rel}, true));
  if (r.rows() == 0) return std::string();
  return std::string(r.Get(0, 0));
}

std::string ByteaParam(std::string_view bytes) { return "\\x" + teamsync::Hex(bytes); }

}  // namespace

Result<RecordsReport> SyncRecords(Conn& conn, const store::Store& store,
                                  const teamsync::Settings& s) {
  const std::string state_path =
      fs::Join(teamsync::TeamDir(store.dir()), teamsync::kRecordsStateFile);
  LORE_ASSIGN(teamsync::RecordState state, teamsync::LoadRecordState(state_path));
  LORE_ASSIGN(
      PgResult rows,
      conn.Exec("SELECT rel, version, machine FROM lore_records WHERE repo = $1", {store.key()}));
  std::map<std::string, RemoteRecord> remote;
  for (int i = 0; i < rows.rows(); ++i) {
    std::string rel(rows.Get(i, 0));
    if (teamsync::IsSharedRecord(rel) && teamsync::IsMachineId(rows.Get(i, 2))) {
      remote[rel] = RemoteRecord{std::string(rows.Get(i, 1)), std::string(rows.Get(i, 2))};
    }
  }
  std::map<std::string, std::string> local;  // rel -> bytes
  for (const auto& rel : teamsync::ListRecordFiles(store.dir())) {
    LORE_ASSIGN(local[rel], fs::ReadFileBeneath(store.dir(), rel, fs::Kind::kRecord));
  }
  std::vector<std::string> rels;
  for (const auto& [rel, _] : local) rels.push_back(rel);
  for (const auto& [rel, _] : remote) {
    if (!local.count(rel)) rels.push_back(rel);
  }
  RecordsReport report;
  for (const auto& rel : rels) {
    const bool here = local.count(rel) != 0;
    const std::string l = here ? teamsync::ContentVersion(local[rel]) : "";
    const RemoteRecord r = remote.count(rel) ? remote[rel] : RemoteRecord{};
    // A conflict whose copy a person removed is resolved: what is here now
    // is meant to follow the team's version that was kept aside.
    if (auto c = state.conflicts.find(rel); c != state.conflicts.end()) {
      if (!fs::Exists(store.Path(
              teamsync::ConflictRel(rel, r.machine.empty() ? s.machine_id : r.machine)))) {
        state.synced[rel] = c->second;
        state.conflicts.erase(c);
      }
    }
    const std::string b = state.synced.count(rel) ? state.synced[rel] : "";
    switch (teamsync::Decide(l, b, r.version)) {
      case teamsync::RecordAction::kNone:
        break;
      case teamsync::RecordAction::kAgree:
        state.synced[rel] = l;
        break;
      case teamsync::RecordAction::kPush: {
        const Params p = {store.key(), rel, l, b, s.machine_id, ByteaParam(local[rel])};
        LORE_ASSIGN(PgResult done,
                    r.version.empty()
                        ? conn.Exec("INSERT INTO lore_records (repo, rel, version, base, machine, "
                                    "content) VALUES ($1, $2, $3, $4, $5, $6::bytea) ON CONFLICT "
                                    "DO NOTHING",
                                    p)
                        : conn.Exec("UPDATE lore_records SET version = $3, base = $4, machine = "
                                    "$5, content = $6::bytea, updated_at = now() WHERE repo = $1 "
                                    "AND rel = $2 AND version = $4",
                                    p));
        // Lost the race to another machine: the next sync sees its version.
        if (done.affected() == 1) {
          state.synced[rel] = l;
          ++report.pushed;
        }
        break;
      }
      case teamsync::RecordAction::kPull: {
        LORE_ASSIGN(std::string bytes, FetchContent(conn, store.key(), rel));
        if (teamsync::ContentVersion(bytes) != r.version) break;  // changed meanwhile
        LORE_TRY(fs::MakeDirs(fs::Dirname(store.Path(rel)), 0700));
        LORE_TRY(fs::WriteFileAtomic(store.Path(rel), bytes));
        state.synced[rel] = r.version;
        ++report.pulled;
        break;
      }
      case teamsync::RecordAction::kConflict: {
        const std::string copy = store.Path(teamsync::ConflictRel(rel, r.machine));
        if (state.conflicts[rel] != r.version || !fs::Exists(copy)) {
          LORE_ASSIGN(std::string bytes, FetchContent(conn, store.key(), rel));
          LORE_TRY(fs::MakeDirs(fs::Dirname(copy), 0700));
          LORE_TRY(fs::WriteFileAtomic(copy, bytes));
          state.conflicts[rel] = teamsync::ContentVersion(bytes);
        }
        report.conflicts.push_back(rel);
        break;
      }
    }
  }
  LORE_TRY(teamsync::SaveRecordState(state_path, state));
  return report;
}

}  // namespace lore::team
