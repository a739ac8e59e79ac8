#include "lore/team/pg.h"

#include <libpq-fe.h>

#include <string>

namespace lore::team {
namespace {

constexpr const char* kReachRepair =
    "check [team] url in config.toml, that the server runs, and the password in PGPASSFILE "
    "(~/.pgpass); the local store is untouched and the next 'lore sync' catches up";

void IgnoreNotice(void*, const char*) {}

}  // namespace

std::string FirstLine(std::string_view message) {
  size_t start = message.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return "no message";
  std::string_view rest = message.substr(start);
  std::string line(rest.substr(0, rest.find('\n')));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

void PgResult::Clear(pg_result* r) { PQclear(r); }
int PgResult::rows() const { return PQntuples(r_.get()); }
std::string_view PgResult::Get(int row, int col) const {
  return std::string_view(PQgetvalue(r_.get(), row, col),
                          static_cast<size_t>(PQgetlength(r_.get(), row, col)));
}
bool PgResult::IsNull(int row, int col) const { return PQgetisnull(r_.get(), row, col) != 0; }
int64_t PgResult::Int(int row, int col) const { return std::stoll(std::string(Get(row, col))); }

int64_t PgResult::affected() const {
  const char* n = PQcmdTuples(r_.get());
  return n && *n ? std::stoll(n) : 0;
}

void Conn::Finish(pg_conn* c) { PQfinish(c); }

Result<Conn> Conn::Open(const std::string& url, int timeout_s, const std::string& config_path) {
  // Our timeout first, so that one written in the url wins (it is expanded later).
  std::string timeout = std::to_string(timeout_s);
  const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {timeout.c_str(), "lore", url.c_str(), nullptr};
  pg_conn* c = PQconnectdbParams(keys, values, 1);
  if (c == nullptr) {
    return Fail(ErrorCode::kUnavailable, "cannot reach the team database: out of memory",
                config_path, 0, kReachRepair);
  }
  Conn conn(c, config_path);
  if (PQstatus(c) != CONNECTION_OK) {
    return Fail(ErrorCode::kUnavailable,
                "cannot reach the team database (" + FirstLine(PQerrorMessage(c)) + ")",
                config_path, 0, kReachRepair);
  }
  PQsetNoticeProcessor(c, IgnoreNotice, nullptr);
  return conn;
}

Error Conn::Failure(std::string_view what, pg_result* r) {
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  last_state_ = state ? state : "";
  std::string msg = r ? PQresultErrorMessage(r) : "";
  if (msg.empty()) msg = PQerrorMessage(c_.get());
  bool lost = PQstatus(c_.get()) != CONNECTION_OK;
  return Error{lost ? ErrorCode::kUnavailable : ErrorCode::kIo,
               std::string(lost ? "lost the team database" : "the team database refused ") +
                   (lost ? " during " : "") + std::string(what) + " (" + FirstLine(msg) + ")",
               config_path_, 0, kReachRepair};
}

Result<PgResult> Conn::Exec(const std::string& sql, const Params& params, bool binary) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  pg_result* r = PQexecParams(c_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr,
                              values.data(), nullptr, nullptr, binary ? 1 : 0);
  ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    Error e = Failure(sql.substr(0, sql.find_first_of(" (")), r);
    if (r) PQclear(r);
    return tl::unexpected(std::move(e));
  }
  last_state_.clear();
  return PgResult(r);
}

Status Conn::Run(const std::string& sql, const Params& params) {
  LORE_ASSIGN(PgResult r, Exec(sql, params));
  (void)r;
  return Ok();
}

Status Conn::CopyIn(const std::string& sql, std::string_view data) {
  pg_result* r = PQexec(c_.get(), sql.c_str());
  if (r == nullptr || PQresultStatus(r) != PGRES_COPY_IN) {
    Error e = Failure("COPY", r);
    if (r) PQclear(r);
    return tl::unexpected(std::move(e));
  }
  PQclear(r);
  constexpr size_t kChunk = size_t{1} << 20;
  bool ok = true;
  for (size_t at = 0; ok && at < data.size(); at += kChunk) {
    size_t n = std::min(kChunk, data.size() - at);
    ok = PQputCopyData(c_.get(), data.data() + at, static_cast<int>(n)) == 1;
  }
  if (PQputCopyEnd(c_.get(), ok ? nullptr : "lore: sending failed") != 1) ok = false;
  std::optional<Error> failed;
  while (pg_result* res = PQgetResult(c_.get())) {
    if (PQresultStatus(res) != PGRES_COMMAND_OK && !failed) failed = Failure("COPY", res);
    PQclear(res);
  }
  if (failed) return tl::unexpected(*failed);
  if (!ok) return tl::unexpected(Failure("COPY", nullptr));
  return Ok();
}

}  // namespace lore::team
