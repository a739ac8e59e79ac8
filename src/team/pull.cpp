// Pulling the other machines' lines into team/<machine>/<log>: each copy is a
// byte-identical prefix of that machine's log, so its size is the pull
// cursor (a pull cut short by a crash resumes where the copy ends). A log the
// other machine rewrote (a new generation) replaces the copy atomically.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/team/sync.h"
#include "store/quarantine.h"
#include "teamsync/lines.h"

namespace lore::team {
namespace {

struct RemoteLog {
  std::string machine, log;
  int64_t gen = 0, size = 0;
};

// The lines of one log from `from` on, as the bytes of the copy ('\n' after
// each), stopping at a gap (none should exist: pushes are prefixes).
Result<std::string> Fetch(Conn& conn, const std::string& repo, const RemoteLog& r, int64_t from,
                          int64_t* lines) {
  LORE_ASSIGN(
      PgResult res,
      conn.Exec(
          "SELECT off::text, line FROM lore_lines WHERE repo = $1 AND machine = $2"
          " AND file = $3 AND gen = $4::integer AND off >= $5::bigint ORDER BY lore_lines.off",
          {repo, r.machine, r.log, std::to_string(r.gen), std::to_string(from)}, true));
  std::string out;
  int64_t expected = from;
  for (int i = 0; i < res.rows(); ++i) {
    if (std::stoll(std::string(res.Get(i, 0))) != expected) break;
    std::string_view line = res.Get(i, 1);
    out.append(line);
    out += '\n';
    expected += static_cast<int64_t>(line.size()) + 1;
    ++*lines;
  }
  return out;
}

// Where the complete lines of the open copy `fd` end: nullopt when it ends
// with '\n' (or is empty), else the offset after its last '\n' (a log.h
// CutRule: a pulled copy holds whole lines only, so anything after its last
// line end is torn).
Result<std::optional<uint64_t>> AfterLastNewline(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  int64_t end = st.st_size;
  char buf[4096];
  while (end > 0) {
    int64_t from = std::max<int64_t>(0, end - static_cast<int64_t>(sizeof buf));
    ssize_t n = ::pread(fd, buf, static_cast<size_t>(end - from), from);
    if (n <= 0) return tl::unexpected(fs::ErrnoError(n < 0 ? errno : EIO, "cannot read", path));
    int64_t i = n;
    while (i > 0 && buf[i - 1] != '\n') --i;
    if (i > 0) {
      end = from + i;
      break;
    }
    end = from;
  }
  if (end == st.st_size) return std::optional<uint64_t>();
  return std::optional<uint64_t>(static_cast<uint64_t>(end));
}

// Opens the copy `rel` of the store at `dir` for appending, locked, with a
// torn last line (a pull killed mid-write) moved into the store's
// quarantine/ (store::QuarantineTornTailOf: never deleted); returns its size
// through `size`.
Result<fs::Fd> OpenCopy(const std::string& dir, const std::string& rel, int64_t* size) {
  const std::string path = fs::Join(dir, rel);
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDWR | O_APPEND | O_CREAT));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kExclusive, path));
  LORE_TRY(store::QuarantineTornTailOf(dir, rel, fd.get(), AfterLastNewline));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  *size = st.st_size;
  return fd;
}

Status PullLog(Conn& conn, const store::Store& store, const RemoteLog& r,
               teamsync::PullState* state, const std::string& state_path, PullReport* report,
               bool* got) {
  LORE_TRY(fs::MakeDirs(teamsync::RemoteDir(store.dir(), r.machine), 0700));
  const std::string path = teamsync::RemoteLog(store.dir(), r.machine, r.log);
  LORE_TRY(fs::RefuseSymlink(path, "a pulled log"));
  auto known = state->find(r.machine);
  bool same_gen =
      known != state->end() && known->second.count(r.log) != 0 && known->second.at(r.log) == r.gen;
  int64_t lines = 0;
  if (same_gen) {
    int64_t size = 0;
    LORE_ASSIGN(fs::Fd fd, OpenCopy(store.dir(), path.substr(store.dir().size() + 1), &size));
    if (size >= r.size) return Ok();
    LORE_ASSIGN(std::string bytes, Fetch(conn, store.key(), r, size, &lines));
    if (bytes.empty()) return Ok();
    LORE_TRY(fs::WriteAll(fd.get(), bytes, path));
    LORE_TRY(fs::SyncFile(fd.get(), path));
  } else {
    LORE_ASSIGN(std::string bytes, Fetch(conn, store.key(), r, 0, &lines));
    LORE_TRY(fs::WriteFileAtomic(path, bytes));
    (*state)[r.machine][r.log] = r.gen;
    LORE_TRY(teamsync::SavePullState(state_path, *state));
  }
  report->lines += lines;
  *got = *got || lines > 0;
  return Ok();
}

}  // namespace

Result<PullReport> Pull(Conn& conn, const store::Store& store, const teamsync::Settings& s) {
  const std::string dir = teamsync::TeamDir(store.dir());
  LORE_TRY(fs::MakeDirs(dir, 0700));
  LORE_ASSIGN(fs::FileLock lock, fs::FileLock::Acquire(fs::Join(dir, teamsync::kSyncLockFile),
                                                       fs::LockMode::kExclusive));
  const std::string state_path = fs::Join(dir, teamsync::kPullStateFile);
  LORE_ASSIGN(teamsync::PullState state, teamsync::LoadPullState(state_path));
  LORE_ASSIGN(PgResult files,
              conn.Exec("SELECT machine, file, gen::text, size::text FROM lore_files"
                        " WHERE repo = $1 AND machine <> $2 ORDER BY machine, file",
                        {store.key(), s.machine_id}));
  PullReport report;
  std::string last_machine;
  bool got = false;
  for (int i = 0; i < files.rows(); ++i) {
    RemoteLog r{std::string(files.Get(i, 0)), std::string(files.Get(i, 1)), files.Int(i, 2),
                files.Int(i, 3)};
    if (!teamsync::IsMachineId(r.machine) || !teamsync::IsSyncedLog(r.log)) continue;
    if (r.machine != last_machine) {
      if (got) ++report.machines;
      got = false;
      last_machine = r.machine;
    }
    LORE_TRY(PullLog(conn, store, r, &state, state_path, &report, &got));
  }
  if (got) ++report.machines;
  return report;
}

}  // namespace lore::team
