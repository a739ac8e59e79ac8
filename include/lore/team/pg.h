// A thin RAII layer over libpq for lore-team (the only program that links
// libpq): a connection that never waits longer than its connect timeout, and
// results that turn into lore::Error one line each.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

struct pg_conn;
struct pg_result;

namespace lore::team {

class PgResult {
 public:
  explicit PgResult(pg_result* r) : r_(r, &Clear) {}
  int rows() const;
  std::string_view Get(int row, int col) const;  // text, or bytes of a binary result
  bool IsNull(int row, int col) const;
  int64_t Int(int row, int col) const;  // a text-format integer column
  int64_t affected() const;             // rows an INSERT/UPDATE changed

 private:
  static void Clear(pg_result* r);
  std::unique_ptr<pg_result, void (*)(pg_result*)> r_;
};

// Query parameters, all sent as text.
using Params = std::vector<std::string>;

class Conn {
 public:
  // Connects with the libpq connection string `url` (URI or key=value),
  // waiting at most `timeout_s` seconds unless the string says otherwise.
  // A failure names `config_path` and says how to repair it.
  static Result<Conn> Open(const std::string& url, int timeout_s, const std::string& config_path);

  // Runs one statement; `binary` asks for binary results (bytea as bytes).
  Result<PgResult> Exec(const std::string& sql, const Params& params = {}, bool binary = false);
  Status Run(const std::string& sql, const Params& params = {});
  // COPY ... FROM STDIN with `data` in COPY's text format.
  Status CopyIn(const std::string& sql, std::string_view data);

  // The SQLSTATE of the last failed statement ("" when none).
  const std::string& last_state() const { return last_state_; }

 private:
  explicit Conn(pg_conn* c, std::string config_path)
      : c_(c, &Finish), config_path_(std::move(config_path)) {}
  static void Finish(pg_conn* c);
  Error Failure(std::string_view what, pg_result* r);
  std::unique_ptr<pg_conn, void (*)(pg_conn*)> c_;
  std::string config_path_;
  std::string last_state_;
};

// The first line of a libpq message, trimmed.
std::string FirstLine(std::string_view message);

}  // namespace lore::team
