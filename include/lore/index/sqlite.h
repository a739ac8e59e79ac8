// Thin RAII wrappers over the SQLite C API, used only by the search index.
//
// Db owns a connection opened with WAL journaling, synchronous=NORMAL and a
// busy timeout, so that several lore processes can search and update the same
// index at once without "database is locked" failures. Stmt owns a prepared
// statement. Errors are lore::Error values naming the database file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lore/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace lore::index {

class Stmt;

class Db {
 public:
  // Opens (creating when `create`) the database at `path` and configures it.
  // A file that is not a database gives kCorrupt.
  static Result<Db> Open(const std::string& path, bool create);

  Db(Db&& o) noexcept : db_(o.db_), path_(std::move(o.path_)) { o.db_ = nullptr; }
  Db& operator=(Db&& o) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  // Runs one or more statements that return no rows.
  Status Exec(std::string_view sql);
  Result<Stmt> Prepare(std::string_view sql);

  // An Error for the connection's last failure, with `what` as context.
  Error LastError(std::string_view what) const;

  sqlite3* get() const { return db_; }
  const std::string& path() const { return path_; }
  int64_t LastInsertId() const;

 private:
  Db(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
};

// A prepared statement. Bind indexes are 1-based, column indexes 0-based.
class Stmt {
 public:
  Stmt(Stmt&& o) noexcept : db_(o.db_), st_(o.st_) { o.st_ = nullptr; }
  Stmt& operator=(Stmt&& o) noexcept;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt();

  Stmt& Bind(int i, int64_t v);
  Stmt& Bind(int i, double v);
  Stmt& Bind(int i, std::string_view v);  // copied by SQLite
  Stmt& BindNull(int i);

  // Advances: true with a row, false when done; errors as Error.
  Result<bool> Step();
  // Runs a statement that returns no rows, then resets it.
  Status Run();
  // Resets the statement and clears its bindings for reuse.
  void Reset();

  bool IsNull(int col) const;
  int64_t Int(int col) const;
  double Double(int col) const;
  std::string_view Text(int col) const;  // valid until the next Step/Reset
  std::string_view Blob(int col) const;

 private:
  friend class Db;
  Stmt(const Db* db, sqlite3_stmt* st) : db_(db), st_(st) {}
  const Db* db_;
  sqlite3_stmt* st_ = nullptr;
};

// Runs BEGIN IMMEDIATE (a write transaction) or BEGIN (a read transaction:
// one snapshot, and the file locks taken once instead of per statement);
// rolls back unless Commit() succeeded.
class Transaction {
 public:
  static Result<Transaction> Begin(Db& db);
  static Result<Transaction> BeginRead(Db& db);
  Transaction(Transaction&& o) noexcept : db_(o.db_), done_(o.done_) { o.done_ = true; }
  Transaction(const Transaction&) = delete;
  ~Transaction();
  Status Commit();

 private:
  explicit Transaction(Db& db) : db_(&db) {}
  Db* db_;
  bool done_ = false;
};

}  // namespace lore::index
