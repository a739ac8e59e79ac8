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

using Keys = std::vector<std::pair<std::string, std::string>>;

TEST(SetStrings, ChangesAKeyOnItsLineAndKeepsTheRest) {
  const std::string text =
      "# mine\n[memory.consolidation]\nengine = \"rules\"  # was\nmax_lint_failures = 3\n";
  auto out = SetStrings(text, "c.toml", Keys{{"memory.consolidation.engine", "llm"}});
  ASSERT_TRUE(out) << out.error().Format();
  EXPECT_EQ(*out, "# mine\n[memory.consolidation]\nengine = \"llm\"\nmax_lint_failures = 3\n");
}

TEST(SetStrings, AddsUnderTheTablesHeaderOrAsADottedKeyBeforeTheFirst) {
  const std::string text = "[memory]\nextract_threshold = 1000\n\n[team]\nurl = \"x\"\n";
  auto out = SetStrings(text, "c.toml",
                        Keys{{"memory.consolidation.engine", "llm"},
                             {"memory.extract_engine", "llm"},
                             {"llm.provider", "claude-code"}});
  ASSERT_TRUE(out) << out.error().Format();
  EXPECT_EQ(*out,
            "llm.provider = \"claude-code\"\n[memory]\nextract_engine = \"llm\"\n"
            "consolidation.engine = \"llm\"\nextract_threshold = 1000\n\n[team]\nurl = \"x\"\n");
  auto c = Config::Parse(*out, "c.toml");
  ASSERT_TRUE(c);
  EXPECT_EQ(*c->Get(Key<int64_t>{"memory.extract_threshold", 0}), 1000);
  EXPECT_EQ(*c->Get(Key<std::string>{"team.url", ""}), "x");
}

TEST(SetStrings, ASubtablesHeaderIsNotItsParents) {
  const std::string text = "[memory.staging]\nthreshold_files = 5\n";
  auto out = SetStrings(text, "c.toml", Keys{{"memory.extract_engine", "llm"}});
  ASSERT_TRUE(out) << out.error().Format();
  EXPECT_EQ(*out, "memory.extract_engine = \"llm\"\n[memory.staging]\nthreshold_files = 5\n");
}

TEST(SetStrings, AnEmptyFileGetsDottedKeysAndQuotesAreEscaped) {
  auto out = SetStrings("", "c.toml", Keys{{"llm.provider", "a\"b\\c"}});
  ASSERT_TRUE(out) << out.error().Format();
  EXPECT_EQ(*out, "llm.provider = \"a\\\"b\\\\c\"\n");
  EXPECT_EQ(*Config::Parse(*out, "c.toml")->Get(Key<std::string>{"llm.provider", ""}), "a\"b\\c");
}

TEST(SetStrings, AValueOverSeveralLinesIsLeftToThePerson) {
  const std::string text = "[llm]\nprovider = \"\"\"\nopenai\"\"\"\n";
  auto out = SetStrings(text, "c.toml", Keys{{"llm.provider", "anthropic"}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().repair.find("set llm.provider = \"anthropic\" in it by hand"),
            std::string::npos);
}

}  // namespace
}  // namespace lore::config
