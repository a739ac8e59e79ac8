// `lore team status`: the schema, this machine, what every machine pushed,
// what this one has not pushed yet and what it pulled.
#include <sys/stat.h>

#include <map>

#include "lore/fs/fd.h"
#include "lore/team/sync.h"
#include "teamsync/lines.h"
#include "teamsync/records.h"

namespace lore::team {
namespace {

int64_t SizeOf(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  return st.st_size;
}

}  // namespace

Result<std::vector<std::string>> Describe(Conn& conn, const store::Store& store,
                                          const teamsync::Settings& s) {
  std::vector<std::string> out;
  LORE_TRY(RequireSchema(conn, s.config_path));
  out.push_back("team: schema version " + std::to_string(kSchemaVersion) + ", repo " + store.key());
  out.push_back("this machine: " + s.machine_id);
  LORE_ASSIGN(PgResult files,
              conn.Exec("SELECT machine, file, size::text FROM lore_files WHERE repo = $1"
                        " ORDER BY machine, file",
                        {store.key()}));
  std::map<std::string, std::string> machines;
  for (int i = 0; i < files.rows(); ++i) {
    std::string& line = machines[std::string(files.Get(i, 0))];
    if (!line.empty()) line += ", ";
    line += std::string(files.Get(i, 1)) + " " + std::string(files.Get(i, 2)) + " bytes";
  }
  for (const auto& [m, line] : machines) {
    out.push_back("pushed by " + m + (m == s.machine_id ? " (this machine)" : "") + ": " + line);
  }
  const std::string dir = teamsync::TeamDir(store.dir());
  LORE_ASSIGN(teamsync::PushState state,
              teamsync::LoadPushState(fs::Join(dir, teamsync::kPushStateFile)));
  std::string pending;
  for (const auto& log : teamsync::SyncedLogs()) {
    int64_t size = SizeOf(store.Path(log));
    int64_t done = state.count(log) ? state.at(log).offset : 0;
    if (size > done)
      pending += (pending.empty() ? "" : ", ") + log + " " + std::to_string(size - done) + " bytes";
  }
  out.push_back(pending.empty() ? "not pushed yet: nothing" : "not pushed yet: " + pending);
  for (const auto& m : teamsync::RemoteMachines(store.dir())) {
    std::string line;
    for (const auto& log : teamsync::SyncedLogs()) {
      int64_t size = SizeOf(teamsync::RemoteLog(store.dir(), m, log));
      if (size >= 0)
        line += (line.empty() ? "" : ", ") + log + " " + std::to_string(size) + " bytes";
    }
    out.push_back("pulled from " + m + ": " + (line.empty() ? "nothing" : line));
  }
  for (const auto& c : teamsync::ListConflicts(store.dir())) {
    out.push_back("conflict: " + c.record_rel + " (" + c.machine + "'s version kept in " +
                  c.copy_rel + ")");
  }
  return out;
}

}  // namespace lore::team
