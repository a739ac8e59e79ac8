#include "support/pg_cluster.h"

#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "support/run.h"

namespace lore::testing {
namespace {

constexpr const char* kBin = "/usr/lib/postgresql/15/bin";

std::string Bin(const char* name) { return std::string(kBin) + "/" + name; }

std::unique_ptr<PgCluster>& Instance() {
  static std::unique_ptr<PgCluster> c;
  return c;
}

}  // namespace

PgCluster* PgCluster::Shared(std::string* why, bool durable) {
  auto& c = Instance();
  if (c) return c->running_ ? c.get() : nullptr;
  c = std::make_unique<PgCluster>();
  if (!c->Init(why, durable)) return nullptr;
  return c.get();
}

void PgCluster::StopShared() {
  auto& c = Instance();
  if (!c) return;
  if (c->running_) c->Stop(false);
  std::error_code ec;
  if (!c->dir_.empty()) std::filesystem::remove_all(c->dir_, ec);
  c.reset();
}

bool PgCluster::AsOwner(const std::vector<std::string>& argv, std::string* out) const {
  std::vector<std::string> full;
  if (::geteuid() == 0) full = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  full.insert(full.end(), argv.begin(), argv.end());
  RunOptions o;
  o.cwd = dir_;
  RunResult r = Run(full, o);
  if (out) *out = r.out + r.err;
  return r.exit_code == 0;
}

bool PgCluster::Init(std::string* why, bool durable) {
  if (::access(Bin("initdb").c_str(), X_OK) != 0 || ::access(Bin("pg_ctl").c_str(), X_OK) != 0) {
    *why = "postgresql-15 is not installed (" + Bin("initdb") +
           "); scripts/install-deps.sh installs it";
    return false;
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "lore-pg-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    *why = "cannot make a temporary folder";
    return false;
  }
  dir_ = tmpl;
  data_ = dir_ + "/data";
  log_ = dir_ + "/server.log";
  if (::geteuid() == 0) {
    struct passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr || ::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      *why = "running as root without a postgres user to run the server as";
      return false;
    }
  }
  std::string out;
  // initdb is slow (seconds on a loaded machine) and ctest runs each test in
  // a process of its own: a cluster made once is kept as a template in the
  // temporary folder and copied (a fraction of a second).
  const std::string tmpl_dir = (std::filesystem::temp_directory_path() /
                                ("lore-pg-template-15-" + std::to_string(::geteuid())))
                                   .string();
  if (::access((tmpl_dir + "/data/PG_VERSION").c_str(), R_OK) != 0) {
    const std::string fresh = dir_ + "/fresh";
    if (!AsOwner({Bin("initdb"), "-D", fresh + "/data", "-U", "postgres", "--auth=trust", "-E",
                  "UTF8", "--no-instructions", "--no-sync"},
                 &out)) {
      *why = "initdb failed: " + out.substr(0, 400);
      return false;
    }
    // A role that must give a password (the wrong-password test), everything
    // else trusted: the socket is in a folder reachable by this user only.
    std::ofstream(dir_ + "/pg_hba.conf")
        << "local all lore_pw scram-sha-256\nlocal all all trust\n";
    if (!AsOwner({"/bin/cp", dir_ + "/pg_hba.conf", fresh + "/data/pg_hba.conf"}, &out)) {
      *why = "cannot write pg_hba.conf: " + out;
      return false;
    }
    // Another test process may have made one meanwhile: either is fine.
    if (::rename(fresh.c_str(), tmpl_dir.c_str()) != 0) AsOwner({"/bin/rm", "-rf", fresh}, &out);
  }
  if (!AsOwner({"/bin/cp", "-a", tmpl_dir + "/data", data_}, &out)) {
    *why = "cannot copy the template cluster: " + out;
    return false;
  }
  std::string opts = "-k " + dir_ + " -c listen_addresses='' -c max_connections=60";
  if (!durable) opts += " -c fsync=off -c full_page_writes=off";
  { std::ofstream(dir_ + "/opts") << opts; }
  if (!Start()) {
    *why = "the cluster did not start: " + Psql("postgres", "SELECT 1");
    std::ifstream in(log_);
    std::string line;
    while (std::getline(in, line)) *why += " | " + line;
    return false;
  }
  Psql("postgres", "CREATE ROLE lore_pw LOGIN PASSWORD 'right-password'");  // may exist
  return true;
}

bool PgCluster::Start() {
  std::ifstream in(dir_ + "/opts");
  std::string opts((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  running_ = AsOwner(
      {Bin("pg_ctl"), "-D", data_, "-l", log_, "-w", "-t", "60", "-o", opts, "start"}, &out);
  return running_;
}

bool PgCluster::Stop(bool immediate) {
  std::string out;
  bool ok = AsOwner(
      {Bin("pg_ctl"), "-D", data_, "-w", "-m", immediate ? "immediate" : "fast", "stop"}, &out);
  if (ok) running_ = false;
  return ok;
}

std::string PgCluster::CreateDatabase() {
  std::string name = "lore_t" + std::to_string(++next_db_);
  Psql("postgres", "CREATE DATABASE " + name);
  Psql(name, "GRANT ALL ON SCHEMA public TO lore_pw");
  return name;
}

std::string PgCluster::Url(const std::string& db, const std::string& user) const {
  return "postgresql:///" + db + "?host=" + dir_ + "&user=" + user;
}

std::string PgCluster::Psql(const std::string& db, const std::string& sql) const {
  RunOptions o;
  o.env["PGPASSFILE"] = std::nullopt;
  RunResult r = Run({Bin("psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", dir_, "-U",
                     "postgres", "-d", db, "-c", sql},
                    o);
  if (r.exit_code != 0) return "ERROR: " + r.err;
  while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
  return r.out;
}

}  // namespace lore::testing
