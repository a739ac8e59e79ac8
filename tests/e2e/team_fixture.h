// Several machines (one LORE_HOME each) sharing one team database on the
// throwaway cluster of support/pg_cluster.h.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/pg_cluster.h"
#include "support/process.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {

inline constexpr const char* kTeamRepo = "git@github.com:acme/widgets.git";
inline constexpr const char* kTeamKey = "github.com_acme_widgets";

inline std::string TeamBinary() {
#ifdef LORE_TEAM_BINARY
  return LORE_TEAM_BINARY;
#else
  return "lore-team";
#endif
}

class TeamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    pg_ = PgCluster::Shared(&why);
    if (pg_ == nullptr && why.find("not installed") != std::string::npos) GTEST_SKIP() << why;
    ASSERT_NE(pg_, nullptr) << why;
    db_ = pg_->CreateDatabase();
  }

  std::string Home(int m) const { return t_ / ("m" + std::to_string(m)); }
  std::string Store(int m) const { return Home(m) + "/" + kTeamKey; }
  std::string Machine(int m) const { return "m" + std::to_string(m); }
  RunOptions Opts(int m, std::string input = {}) const {
    RunOptions o;
    o.env["LORE_HOME"] = Home(m);
    o.env["XDG_CONFIG_HOME"] = std::nullopt;
    o.env["HOME"] = Home(m);
    o.env["PGPASSFILE"] = std::nullopt;
    o.cwd = t_.path();
    o.input = std::move(input);
    return o;
  }
  // A store on machine `m` pointed at the team database.
  void MakeMachine(int m, const std::string& url = {}) {
    ASSERT_EQ(Lore({"ensure", kTeamRepo}, Opts(m)).exit_code, 0);
    WriteConfig(m, url.empty() ? pg_->Url(db_) : url);
  }
  void WriteConfig(int m, const std::string& url) {
    std::ofstream(Store(m) + "/config.toml")
        << "[team]\nurl = \"" << url << "\"\nmachine_id = \"" << Machine(m) << "\"\n";
  }
  void Capture(int m, const std::string& finding) {
    auto r = Lore({"append-review", kTeamRepo},
                  Opts(m, R"({"ticket":"W-1","finding":")" + finding + R"(","severity":"major"})"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // Appends `n` raw lines directly (as many captures would).
  void AppendRaw(int m, int n, const std::string& tag) {
    std::ofstream out(Store(m) + "/raw.jsonl", std::ios::app | std::ios::binary);
    for (int i = 0; i < n; ++i) {
      out << R"({"kind":"review","finding":")" << tag << " finding " << i
          << R"(","severity":"minor","recorded_at":"2026-11-30T10:00:00Z"})"
          << "\n";
    }
  }
  RunResult Sync(int m) const { return Lore({"sync", kTeamRepo}, Opts(m)); }
  RunResult Team(int m, const std::string& verb) const {
    return Lore({"team", verb, kTeamRepo}, Opts(m));
  }
  std::string Read(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static int64_t Lines(const std::string& text) {
    return static_cast<int64_t>(std::count(text.begin(), text.end(), '\n'));
  }
  std::string Sql(const std::string& sql) const { return pg_->Psql(db_, sql); }
  // Every file of a store with its bytes (what "untouched" compares).
  std::map<std::string, std::string> Snapshot(int m) const {
    std::map<std::string, std::string> out;
    for (auto& p : std::filesystem::recursive_directory_iterator(Store(m))) {
      std::string rel = std::filesystem::relative(p.path(), Store(m)).string();
      out[rel] = p.is_regular_file() ? Read(p.path().string()) : "<dir>";
    }
    return out;
  }

  TempDir t_;
  PgCluster* pg_ = nullptr;
  std::string db_;
};

}  // namespace lore::testing
