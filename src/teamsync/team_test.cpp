#include "lore/teamsync/team.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace lore::teamsync {
namespace {

TEST(TeamUrl, PasswordsAreSeenInUrisAndKeyValueStrings) {
  EXPECT_TRUE(UrlCarriesPassword("postgresql://alice:secret@db.example.com/lore"));
  EXPECT_TRUE(UrlCarriesPassword("postgres://alice:@db.example.com:5432/lore"));
  EXPECT_TRUE(UrlCarriesPassword("postgresql://db.example.com/lore?sslmode=require&password=x"));
  EXPECT_TRUE(UrlCarriesPassword("POSTGRESQL://db/lore?Password=x"));
  EXPECT_TRUE(UrlCarriesPassword("host=db user=alice password=secret"));
  EXPECT_TRUE(UrlCarriesPassword("host=db password = secret"));
  EXPECT_FALSE(UrlCarriesPassword("postgresql://alice@db.example.com/lore?sslmode=verify-full"));
  EXPECT_FALSE(UrlCarriesPassword("postgresql:///lore?host=/tmp/s&user=alice"));
  EXPECT_FALSE(UrlCarriesPassword("postgresql://[::1]:5432/lore"));
  EXPECT_FALSE(UrlCarriesPassword("host=db user=alice passfile=/home/a/.pgpass"));
  EXPECT_FALSE(UrlCarriesPassword("service=lore"));
}

TEST(TeamUrl, MachineIds) {
  EXPECT_TRUE(IsMachineId("m1"));
  EXPECT_TRUE(IsMachineId("0123456789abcdef"));
  EXPECT_TRUE(IsMachineId("ci-runner_7"));
  EXPECT_FALSE(IsMachineId(""));
  EXPECT_FALSE(IsMachineId("-x"));
  EXPECT_FALSE(IsMachineId("_x"));
  EXPECT_FALSE(IsMachineId("A"));
  EXPECT_FALSE(IsMachineId("a/b"));
  EXPECT_FALSE(IsMachineId(".."));
  EXPECT_FALSE(IsMachineId("conflicts"));
  EXPECT_FALSE(IsMachineId(std::string(65, 'a')));
}

class TeamSettingsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(store_.Ensure(std::chrono::system_clock::now())); }
  void Config(const std::string& text) { t_.Write("k/config.toml", text); }
  testing::TempDir t_;
  store::Store store_ = store::Store::AtDir(t_.path(), "k");
};

TEST_F(TeamSettingsTest, NoUrlMeansNoTeam) {
  auto s = LoadSettings(store_);
  ASSERT_TRUE(s) << s.error().Format();
  EXPECT_FALSE(s->has_value());
  EXPECT_FALSE(std::filesystem::exists(t_ / "k/team"));
}

TEST_F(TeamSettingsTest, APasswordInTheUrlIsRefusedWithTheLine) {
  Config("[team]\n\nurl = \"postgresql://alice:secret@db/lore\"\n");
  auto s = LoadSettings(store_);
  ASSERT_FALSE(s);
  std::string line = s.error().Format();
  EXPECT_NE(line.find("config.toml:3"), std::string::npos) << line;
  EXPECT_NE(line.find("PGPASSFILE"), std::string::npos) << line;
  EXPECT_EQ(line.find("secret"), std::string::npos) << line;
}

TEST_F(TeamSettingsTest, TheMachineIdIsMadeOnceAndKept) {
  Config("[team]\nurl = \"postgresql://db/lore\"\n");
  auto a = LoadSettings(store_);
  ASSERT_TRUE(a && a->has_value()) << (a ? "" : a.error().Format());
  EXPECT_EQ((*a)->machine_id.size(), 16u);
  EXPECT_TRUE(IsMachineId((*a)->machine_id));
  struct stat st;
  ASSERT_EQ(::stat((t_ / "k/team/machine_id").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto b = LoadSettings(store_);
  ASSERT_TRUE(b && b->has_value());
  EXPECT_EQ((*b)->machine_id, (*a)->machine_id);
}

TEST_F(TeamSettingsTest, AConfiguredMachineIdWinsAndIsChecked) {
  Config("[team]\nurl = \"postgresql://db/lore\"\nmachine_id = \"laptop-1\"\n");
  auto a = LoadSettings(store_);
  ASSERT_TRUE(a && a->has_value());
  EXPECT_EQ((*a)->machine_id, "laptop-1");
  Config("[team]\nurl = \"postgresql://db/lore\"\nmachine_id = \"../x\"\n");
  auto b = LoadSettings(store_);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().Format().find("config.toml:3"), std::string::npos);
}

TEST_F(TeamSettingsTest, RemoteCopiesAreFoldersOfMachinesOnly) {
  t_.Write("k/team/m2/raw.jsonl", "{}\n");
  t_.Write("k/team/m1/raw.jsonl", "{}\n");
  t_.Write("k/team/m1/learnings.jsonl", "{}\n");
  t_.Write("k/team/push-state.json", "{}\n");
  t_.Write("k/team/.hidden/raw.jsonl", "{}\n");
  t_.Write("elsewhere/raw.jsonl", "{}\n");
  std::filesystem::create_symlink(t_ / "elsewhere", t_ / "k/team/m3");
  EXPECT_EQ(RemoteMachines(store_.dir()), (std::vector<std::string>{"m1", "m2"}));
  EXPECT_EQ(RemoteCopies(store_.dir(), "raw.jsonl"),
            (std::vector<std::string>{"team/m1/raw.jsonl", "team/m2/raw.jsonl"}));
  EXPECT_EQ(RemoteCopies(store_.dir(), "learnings.jsonl"),
            (std::vector<std::string>{"team/m1/learnings.jsonl"}));
}

}  // namespace
}  // namespace lore::teamsync
