// Memory and knowledge records in the team store (docs/team.md): each file
// has a version (a hash of its bytes); the version both machines last agreed
// on is kept in team/records-state.json, never in the user's Markdown. A
// record changed on two machines since then is never overwritten: the other
// version is kept beside, under team/conflicts/, until a person resolves it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

namespace lore::teamsync {

// The version of a record's bytes: 16 hex digits (FNV-1a, 64 bits).
std::string ContentVersion(std::string_view bytes);

// The record files a team shares, as rel paths, sorted: memory/summary.md,
// memory/decisions/<slug>.md, memory/requests/<slug>.md, knowledge/<slug>.md
// (memory/workflow/ is people's own and stays local).
std::vector<std::string> ListRecordFiles(const std::string& store_dir);
bool IsSharedRecord(std::string_view rel);

enum class RecordAction { kNone, kAgree, kPush, kPull, kConflict };
// What a sync does with a record whose local, last agreed and team versions
// are given ("" for none). A local deletion is not propagated.
RecordAction Decide(const std::string& local, const std::string& base, const std::string& remote);

struct RecordState {
  std::map<std::string, std::string> synced;     // rel -> version last agreed
  std::map<std::string, std::string> conflicts;  // rel -> team version kept aside
};
Result<RecordState> LoadRecordState(const std::string& path);
Status SaveRecordState(const std::string& path, const RecordState& state);

// Where the team's version of `rel` is kept in a conflict:
// team/conflicts/<rel without .md>.<machine>.md (rel path).
std::string ConflictRel(std::string_view rel, std::string_view machine);

struct Conflict {
  std::string copy_rel;    // team/conflicts/...
  std::string record_rel;  // the record it belongs to
  std::string machine;     // whose version it is
};
// Every conflict copy under team/conflicts/, sorted.
std::vector<Conflict> ListConflicts(const std::string& store_dir);

}  // namespace lore::teamsync
