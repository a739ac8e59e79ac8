#include "lore/config/config.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace lore::config {
namespace {

const Key<bool> kFlag{"memory.proposals.enabled", true};
const Key<int64_t> kQuota{"memory.proposals.quota_per_wave", 5};
const Key<double> kFloor{"memory.proposals.confidence_floor", 0.5};
const Key<std::string> kModel{"memory.consolidation_model", "none"};

TEST(ConfigTest, MissingFileGivesDefaults) {
  testing::TempDir t;
  auto c = Config::Load(t / "config.toml");
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(*c->Get(kFlag), true);
  EXPECT_EQ(*c->Get(kQuota), 5);
  EXPECT_EQ(*c->Get(kFloor), 0.5);
  EXPECT_EQ(*c->Get(kModel), "none");
  EXPECT_FALSE(c->Has("memory.proposals.enabled"));
}

TEST(ConfigTest, ReadsDottedTablesAndIntegersAsDoubles) {
  auto c = Config::Parse(
      "[memory]\nconsolidation_model = \"m1\"\n[memory.proposals]\nenabled = false\n"
      "quota_per_wave = 7\nconfidence_floor = 1\n",
      "/s/config.toml");
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(*c->Get(kFlag), false);
  EXPECT_EQ(*c->Get(kQuota), 7);
  EXPECT_EQ(*c->Get(kFloor), 1.0);
  EXPECT_EQ(*c->Get(kModel), "m1");
  EXPECT_EQ(c->LineOf("memory.proposals.quota_per_wave"), 5);
  EXPECT_EQ(
      c->KeysIn("memory.proposals"),
      (std::vector<std::string>{"memory.proposals.confidence_floor", "memory.proposals.enabled",
                                "memory.proposals.quota_per_wave"}));
}

TEST(ConfigTest, MalformedFileNamesTheLine) {
  auto c =
      Config::Parse("[memory.proposals]\nenabled = true\nquota_per_wave = = 3\n", "/s/config.toml");
  ASSERT_FALSE(c);
  const std::string msg = c.error().Format();
  EXPECT_EQ(c.error().line, 3);
  EXPECT_NE(msg.find("/s/config.toml:3; "), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind("malformed config: ", 0), 0u) << msg;
}

TEST(ConfigTest, WrongTypeNamesKeyAndLine) {
  auto c = Config::Parse("[memory.proposals]\n\nenabled = \"yes\"\n", "/s/config.toml");
  ASSERT_TRUE(c);
  auto v = c->Get(kFlag);
  ASSERT_FALSE(v);
  EXPECT_EQ(
      v.error().Format(),
      "memory.proposals.enabled: expected true or false, found a string: /s/config.toml:3; set "
      "memory.proposals.enabled to true or false (see docs/config.md)");
}

TEST(ConfigTest, InvalidUtf8IsAnError) {
  auto c = Config::Parse("a = \"x\"\nb = \"\xff\"\n", "/s/config.toml");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().line, 2);
}

}  // namespace
}  // namespace lore::config
