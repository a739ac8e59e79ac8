// Pushing this machine's append-only logs: complete lines from the push
// cursor on, COPYed into a temporary table and inserted with ON CONFLICT DO
// NOTHING in one transaction per batch; the cursor moves only after COMMIT,
// so a push repeated after a crash or a timeout inserts nothing twice.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/team/sync.h"
#include "teamsync/lines.h"

namespace lore::team {
namespace {

// At most this much of a log goes into one transaction (a line is at most
// log::kMaxLineBytes, so a batch always holds a complete line when one is there).
constexpr int64_t kBatchBytes = int64_t{32} << 20;

Result<std::string> ReadAt(int fd, int64_t from, int64_t to, const std::string& path) {
  std::string out(static_cast<size_t>(to - from), '\0');
  LORE_ASSIGN(size_t got,
              fs::ReadAt(fd, out.data(), out.size(), static_cast<uint64_t>(from), path));
  out.resize(got);
  return out;
}

// The error of a push whose lines collide with other lines the database
// holds under the same identity (machine, log, generation, offset): another
// store pushes as this machine.
Error Collision(const teamsync::Settings& s, const std::string& log, int64_t lines,
                const std::string& first_offset) {
  return Error{ErrorCode::kExists,
               std::to_string(lines) + " line(s) of " + log + " (the first at byte " +
                   first_offset + ") differ from the lines the team database holds for machine " +
                   s.machine_id + ": another store pushes as this machine, and nothing of this " +
                   "push was stored",
               s.config_path, 0,
               "give this store its own machine id (remove team/machine_id in the store, or set "
               "another [team] machine_id in config.toml), remove team/push-state.json, then "
               "run 'lore sync' again: this store's lines are pushed under the new id"};
}

// Sends one batch in one transaction. Lines already there with the same
// bytes (a push repeated after a crash) insert nothing; a line there with
// other bytes is a collision: the transaction is rolled back.
Status SendBatch(Conn& conn, const std::string& repo, const teamsync::Settings& s,
                 const std::string& log, int64_t gen, int64_t end,
                 const std::vector<teamsync::LineAt>& lines) {
  std::string copy;
  size_t bytes = 0;
  for (const auto& l : lines) bytes += l.text.size();
  copy.reserve(bytes * 2 + lines.size() * 28);
  for (const auto& l : lines) {
    copy += std::to_string(l.offset);
    copy += '\t';
    teamsync::AppendCopyBytea(l.text, &copy);
    copy += '\n';
  }
  const Params key = {repo, s.machine_id, log, std::to_string(gen)};
  LORE_TRY(conn.Run("BEGIN"));
  auto sent = [&]() -> Status {
    LORE_TRY(conn.Run(
        "CREATE TEMP TABLE IF NOT EXISTS lore_in (off bigint, line bytea) ON COMMIT DELETE ROWS"));
    LORE_TRY(conn.CopyIn("COPY lore_in (off, line) FROM STDIN", copy));
    LORE_ASSIGN(PgResult inserted,
                conn.Exec("INSERT INTO lore_lines (repo, machine, file, gen, off, hash, line)"
                          " SELECT $1, $2, $3, $4::integer, off, md5(line), line FROM lore_in"
                          " ON CONFLICT DO NOTHING",
                          key));
    if (inserted.affected() < static_cast<int64_t>(lines.size())) {
      LORE_ASSIGN(
          PgResult differ,
          conn.Exec("SELECT count(*)::text, min(i.off)::text FROM lore_in i JOIN lore_lines l"
                    " ON l.repo = $1 AND l.machine = $2 AND l.file = $3"
                    " AND l.gen = $4::integer AND l.off = i.off WHERE l.line <> i.line",
                    key));
      if (differ.Int(0, 0) > 0) {
        return tl::unexpected(Collision(s, log, differ.Int(0, 0), std::string(differ.Get(0, 1))));
      }
    }
    LORE_TRY(conn.Run(
        "INSERT INTO lore_files (repo, machine, file, gen, size) VALUES ($1, $2, $3, $4::integer, "
        "$5::bigint) ON CONFLICT (repo, machine, file) DO UPDATE SET gen = EXCLUDED.gen,"
        " size = EXCLUDED.size, updated_at = now()"
        " WHERE (lore_files.gen, lore_files.size) < (EXCLUDED.gen, EXCLUDED.size)",
        {repo, s.machine_id, log, std::to_string(gen), std::to_string(end)}));
    return conn.Run("COMMIT");
  }();
  if (!sent) (void)conn.Run("ROLLBACK");
  return sent;
}

// Pushes one log from its cursor to its current end, batch by batch.
Status PushLog(Conn& conn, const store::Store& store, const teamsync::Settings& s,
               const std::string& log, const std::string& state_path, teamsync::PushState* state,
               PushReport* report) {
  const std::string path = store.Path(log);
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return Ok();  // not written yet
  LORE_TRY(fs::RefuseSymlink(path, log));
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY));
  teamsync::LogCursor cursor = (*state)[log];
  bool counted = false;
  while (true) {
    // A shared lock per batch: appenders hold it exclusively for one write.
    LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kShared, path));
    if (::fstat(fd.get(), &st) != 0)
      return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
    const int64_t size = st.st_size;
    std::string before;
    if (size >= cursor.offset) {
      int64_t from =
          std::max<int64_t>(0, cursor.offset - static_cast<int64_t>(teamsync::kTailBytes));
      LORE_ASSIGN(before, ReadAt(fd.get(), from, cursor.offset, path));
    }
    if (teamsync::Rewritten(cursor, size, before)) {
      report->rewritten.push_back(log);
      cursor = teamsync::LogCursor{cursor.gen + 1, 0, ""};
      before.clear();
    }
    const int64_t to = std::min(size, cursor.offset + kBatchBytes);
    if (to <= cursor.offset) break;
    LORE_ASSIGN(std::string data, ReadAt(fd.get(), cursor.offset, to, path));
    fs::UnlockFd(fd.get());
    std::vector<teamsync::LineAt> lines;
    const int64_t end = teamsync::SplitComplete(data, cursor.offset, &lines);
    if (lines.empty()) break;  // a line still being written: the next push takes it
    LORE_TRY(SendBatch(conn, store.key(), s, log, cursor.gen, end, lines));
    std::string window = before + data.substr(0, static_cast<size_t>(end - cursor.offset));
    size_t keep = std::min(window.size(), teamsync::kTailBytes);
    cursor = teamsync::LogCursor{
        cursor.gen, end, teamsync::Hex(std::string_view(window).substr(window.size() - keep))};
    (*state)[log] = cursor;
    LORE_TRY(teamsync::SavePushState(state_path, *state));
    report->lines += static_cast<int64_t>(lines.size());
    if (!counted) ++report->logs;
    counted = true;
  }
  return Ok();
}

}  // namespace

Result<PushReport> Push(Conn& conn, const store::Store& store, const teamsync::Settings& s) {
  const std::string dir = teamsync::TeamDir(store.dir());
  LORE_TRY(fs::MakeDirs(dir, 0700));
  LORE_ASSIGN(fs::FileLock lock, fs::FileLock::Acquire(fs::Join(dir, teamsync::kSyncLockFile),
                                                       fs::LockMode::kExclusive));
  const std::string state_path = fs::Join(dir, teamsync::kPushStateFile);
  LORE_ASSIGN(teamsync::PushState state, teamsync::LoadPushState(state_path));
  PushReport report;
  for (const auto& log : teamsync::SyncedLogs()) {
    LORE_TRY(PushLog(conn, store, s, log, state_path, &state, &report));
  }
  return report;
}

}  // namespace lore::team
