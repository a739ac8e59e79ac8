#include "lore/app/team.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lore/app/store.h"
#include "support/temp_dir.h"

namespace lore::app {
namespace {

class AppTeamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("LORE_HOME", (t_ / "stores").c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (t_ / "cache").c_str(), 1);
    std::filesystem::create_directories(t_ / "repo/.git");
    repo_ = t_ / "repo";
  }

  testing::TempDir t_;
  std::string repo_;
};

TEST_F(AppTeamTest, WithoutATeamDatabaseTheErrorSaysWhatToAdd) {
  auto r = OpenTeamStore(repo_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_NE(r.error().path.find("config.toml"), std::string::npos) << r.error().Format();
  EXPECT_NE(r.error().repair.find("[team] url"), std::string::npos) << r.error().Format();
}

TEST_F(AppTeamTest, OpensTheStoreWithItsTeamSettings) {
  auto store = OpenStore(repo_);
  ASSERT_TRUE(store) << store.error().Format();
  std::ofstream(store->config_path(), std::ios::app)
      << "[team]\nurl = \"postgresql://me@db.example/lore\"\n";
  auto r = OpenTeamStore(repo_);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->store.dir(), store->dir());
  EXPECT_EQ(r->settings.url, "postgresql://me@db.example/lore");
  EXPECT_FALSE(r->settings.machine_id.empty()) << "made once when none is set";
}

TEST_F(AppTeamTest, ATeamIsConfiguredByTheUrlOfAnExistingStore) {
  auto located = LocateStore(repo_);
  ASSERT_TRUE(located) << located.error().Format();
  EXPECT_FALSE(TeamUrlConfigured(*located)) << "no store yet";
  auto store = OpenStore(repo_);
  ASSERT_TRUE(store) << store.error().Format();
  EXPECT_FALSE(TeamUrlConfigured(*store)) << "a store without [team]";
  std::ofstream(store->config_path(), std::ios::app) << "[team]\nmachine_id = \"m1\"\n";
  EXPECT_FALSE(TeamUrlConfigured(*store)) << "[team] without its url";
  std::ofstream(store->config_path(), std::ios::app)
      << "url = \"postgresql://me@db.example/lore\"\n";
  EXPECT_TRUE(TeamUrlConfigured(*store));
  std::ofstream(store->config_path(), std::ios::app) << "this is not toml\n";
  EXPECT_FALSE(TeamUrlConfigured(*store)) << "a config.toml that cannot be read";
}

}  // namespace
}  // namespace lore::app
