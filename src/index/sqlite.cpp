#include "lore/index/sqlite.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

#include "lore/fs/fd.h"

namespace lore::index {
namespace {

constexpr int kBusyTimeoutMs = 10000;
constexpr const char* kRebuildRepair =
    "delete the file (the index is derived and is rebuilt by the next search or 'lore reindex')";

// Runs a pragma that may need a lock on a fresh database, retrying while busy.
int ExecRetry(sqlite3* db, const char* sql) {
  int rc = SQLITE_OK;
  for (int i = 0; i < 200; ++i) {
    rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return rc;
}

// SQLite's settings for the whole process, made before its first use: no
// memory statistics (lore reads none), whose mutex every one of SQLite's
// allocations would otherwise take: a prompt's search makes thousands.
void ConfigureOnce() {
  static const int rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)rc;  // SQLITE_MISUSE when SQLite was already in use: the default stays
}

}  // namespace

Result<Db> Db::Open(const std::string& path, bool create) {
  ConfigureOnce();
  if (create) {
    // Create the file ourselves so that it is 0600 (SQLite gives -wal and
    // -shm the same mode) and never through a symlink.
    auto fd = fs::Open(path, O_RDWR | O_CREAT, 0600);
    if (!fd) return tl::unexpected(fd.error());
  }
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Db db(raw, path);
  if (rc != SQLITE_OK) {
    if (raw == nullptr) return Fail(ErrorCode::kIo, "cannot open the search index", path);
    return Fail(db.LastError("cannot open the search index"));
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  // Keep the -wal and -shm files between processes (recreating them costs
  // every short-lived search several file-system operations), and leave
  // checkpoints to the writers.
  int one = 1;
  sqlite3_file_control(raw, "main", SQLITE_FCNTL_PERSIST_WAL, &one);
  sqlite3_db_config(raw, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  // journal_mode is persistent: only switch when the file is not in WAL yet.
  rc = ExecRetry(raw,
                 "PRAGMA synchronous=NORMAL; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16000; "
                 "PRAGMA mmap_size=1073741824;");
  if (rc == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    bool wal = false;
    rc = sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &st, nullptr);
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* mode = sqlite3_column_text(st, 0);
      wal = mode != nullptr && std::string_view(reinterpret_cast<const char*>(mode)) == "wal";
    }
    rc = sqlite3_finalize(st);
    if (rc == SQLITE_OK && !wal) rc = ExecRetry(raw, "PRAGMA journal_mode=WAL");
  }
  if (rc != SQLITE_OK) {
    Error e = db.LastError("cannot use the search index");
    return Fail(std::move(e));
  }
  return db;
}

Db& Db::operator=(Db&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = o.db_;
    path_ = std::move(o.path_);
    o.db_ = nullptr;
  }
  return *this;
}

Db::~Db() {
  if (db_) sqlite3_close_v2(db_);
}

Error Db::LastError(std::string_view what) const {
  int code = db_ ? sqlite3_errcode(db_) & 0xff : SQLITE_ERROR;
  std::string msg = std::string(what) + " (" + (db_ ? sqlite3_errmsg(db_) : "no connection") + ")";
  switch (code) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return Error{ErrorCode::kCorrupt, msg, path_, 0, kRebuildRepair};
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Error{ErrorCode::kBusy, msg, path_, 0, "retry when the other lore process is done"};
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
      return Error{ErrorCode::kPermission, msg, path_, 0, fs::kPermissionRepair};
    case SQLITE_FULL:
      return Error{ErrorCode::kIo, msg, path_, 0, "free some disk space"};
    default:
      return Error{ErrorCode::kIo, msg, path_, 0, kRebuildRepair};
  }
}

Status Db::Exec(std::string_view sql) {
  std::string s(sql);
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    return Fail(LastError("search index statement failed"));
  }
  return Ok();
}

Result<Stmt> Db::Prepare(std::string_view sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &st, nullptr) != SQLITE_OK) {
    return Fail(LastError("cannot prepare a search index statement"));
  }
  return Stmt(this, st);
}

int64_t Db::LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

Stmt& Stmt::operator=(Stmt&& o) noexcept {
  if (this != &o) {
    if (st_) sqlite3_finalize(st_);
    db_ = o.db_;
    st_ = o.st_;
    o.st_ = nullptr;
  }
  return *this;
}

Stmt::~Stmt() {
  if (st_) sqlite3_finalize(st_);
}

Stmt& Stmt::Bind(int i, int64_t v) {
  sqlite3_bind_int64(st_, i, v);
  return *this;
}
Stmt& Stmt::Bind(int i, double v) {
  sqlite3_bind_double(st_, i, v);
  return *this;
}
Stmt& Stmt::Bind(int i, std::string_view v) {
  sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Stmt& Stmt::BindNull(int i) {
  sqlite3_bind_null(st_, i);
  return *this;
}

Result<bool> Stmt::Step() {
  int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Error e = db_->LastError("search index query failed");
  sqlite3_reset(st_);
  return Fail(std::move(e));
}

Status Stmt::Run() {
  auto r = Step();
  Reset();
  if (!r) return Fail(r.error());
  return Ok();
}

void Stmt::Reset() {
  sqlite3_reset(st_);
  sqlite3_clear_bindings(st_);
}

bool Stmt::IsNull(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
int64_t Stmt::Int(int col) const { return sqlite3_column_int64(st_, col); }
double Stmt::Double(int col) const { return sqlite3_column_double(st_, col); }
std::string_view Stmt::Text(int col) const {
  const unsigned char* p = sqlite3_column_text(st_, col);
  int n = sqlite3_column_bytes(st_, col);
  return p ? std::string_view(reinterpret_cast<const char*>(p), n) : std::string_view();
}
std::string_view Stmt::Blob(int col) const {
  const void* p = sqlite3_column_blob(st_, col);
  int n = sqlite3_column_bytes(st_, col);
  return p ? std::string_view(static_cast<const char*>(p), n) : std::string_view();
}

Result<Transaction> Transaction::Begin(Db& db) {
  LORE_TRY(db.Exec("BEGIN IMMEDIATE"));
  return Transaction(db);
}

Result<Transaction> Transaction::BeginRead(Db& db) {
  LORE_TRY(db.Exec("BEGIN"));
  return Transaction(db);
}

Transaction::~Transaction() {
  if (!done_) (void)db_->Exec("ROLLBACK");
}

Status Transaction::Commit() {
  LORE_TRY(db_->Exec("COMMIT"));
  done_ = true;
  return Ok();
}

}  // namespace lore::index
