// A throwaway PostgreSQL 15 cluster for the team store's tests and benchmark:
// initdb into a temporary folder, a Unix socket in that folder only (no TCP),
// stopped and removed at the end. Started once per process on first use.
// When euid is 0 the server runs as the `postgres` user (initdb refuses root).
#pragma once

#include <string>
#include <vector>

namespace lore::testing {

class PgCluster {
 public:
  // The process's cluster, started on first call; nullptr (with the reason in
  // `*why`) when postgresql-15 is not installed or the cluster cannot start.
  static PgCluster* Shared(std::string* why, bool durable = false);
  // Stops the shared cluster (at the end of the test program).
  static void StopShared();

  // A fresh database on this cluster, owned by the superuser; returns its name.
  std::string CreateDatabase();
  // The libpq URI lore is given: the socket folder, the superuser, `db`.
  std::string Url(const std::string& db, const std::string& user = "postgres") const;
  // Runs SQL through psql as the superuser on `db`; returns its unaligned
  // output (rows '\n'-separated, fields '|'-separated), or "ERROR: ..." .
  std::string Psql(const std::string& db, const std::string& sql) const;

  // pg_ctl stop -m immediate (a crash) or fast, and start again.
  bool Stop(bool immediate);
  bool Start();

  const std::string& socket_dir() const { return dir_; }

 private:
  bool Init(std::string* why, bool durable);
  bool AsOwner(const std::vector<std::string>& argv, std::string* out) const;
  std::string dir_, data_, log_;
  int next_db_ = 0;
  bool running_ = false;
};

}  // namespace lore::testing
