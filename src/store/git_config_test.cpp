#include "store/git_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace lore::store {
namespace {

namespace stdfs = std::filesystem;

TEST(GitConfigValue, FindsOriginUrl) {
  const char* cfg =
      "[core]\n\trepositoryformatversion = 0\n"
      "[remote \"upstream\"]\n\turl = git@example.com:up/x.git\n"
      "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git ; comment\n"
      "\tfetch = +refs/heads/*:refs/remotes/origin/*\n";
  EXPECT_EQ(GitConfigValue(cfg, "remote", "origin", "url"), "git@github.com:acme/widgets.git");
  EXPECT_EQ(GitConfigValue(cfg, "remote", "upstream", "url"), "git@example.com:up/x.git");
  EXPECT_EQ(GitConfigValue(cfg, "remote", "nope", "url"), std::nullopt);
}

TEST(GitConfigValue, CaseQuotesAndOldSyntax) {
  EXPECT_EQ(
      GitConfigValue("[Remote \"origin\"]\n  URL = \"https://h/a b\"\n", "remote", "origin", "url"),
      "https://h/a b");
  EXPECT_EQ(GitConfigValue("[remote.origin]\nurl=https://h/x\n", "remote", "origin", "url"),
            "https://h/x");
  // Subsections are case-sensitive in the quoted form.
  EXPECT_EQ(GitConfigValue("[remote \"Origin\"]\nurl=x\n", "remote", "origin", "url"),
            std::nullopt);
  // The last assignment wins.
  EXPECT_EQ(GitConfigValue("[remote \"origin\"]\nurl=a\nurl=b\n", "remote", "origin", "url"), "b");
}

class CheckoutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/lore-git-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  void TearDown() override { stdfs::remove_all(dir_); }
  void Write(const std::string& rel, const std::string& text) {
    stdfs::path p = stdfs::path(dir_) / rel;
    stdfs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string dir_;
};

TEST_F(CheckoutTest, PlainCheckoutFromSubdirectory) {
  Write("repo/.git/config", "[remote \"origin\"]\n\turl = https://github.com/acme/widgets\n");
  stdfs::create_directories(dir_ + "/repo/src/deep");
  auto c = FindCheckout(dir_ + "/repo/src/deep");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->top, dir_ + "/repo");
  EXPECT_EQ(*OriginUrl(*c), "https://github.com/acme/widgets");
}

TEST_F(CheckoutTest, WorktreeFileAndCommondir) {
  Write("main/.git/config", "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git\n");
  Write("main/.git/worktrees/wt/commondir", "../..\n");
  Write("wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
  auto c = FindCheckout(dir_ + "/wt");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->top, dir_ + "/wt");
  EXPECT_EQ(c->common_dir, dir_ + "/main/.git");
  EXPECT_EQ(*OriginUrl(*c), "git@github.com:acme/widgets.git");
}

TEST_F(CheckoutTest, AConfigThatCannotBeReadIsAnErrorNotNoOrigin) {
  Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  ASSERT_EQ(::mkfifo((dir_ + "/repo/.git/config").c_str(), 0600), 0);
  auto c = FindCheckout(dir_ + "/repo");
  ASSERT_TRUE(c);
  auto url = OriginUrl(*c);
  ASSERT_FALSE(url);
  EXPECT_NE(url.error().Format().find(dir_ + "/repo/.git/config"), std::string::npos);
  // A checkout without a config has no origin.
  ::unlink((dir_ + "/repo/.git/config").c_str());
  EXPECT_EQ(*OriginUrl(*c), std::nullopt);
}

TEST_F(CheckoutTest, NoOriginAndNoCheckout) {
  Write("repo/.git/config", "[core]\n\tbare = false\n");
  auto c = FindCheckout(dir_ + "/repo");
  ASSERT_TRUE(c);
  EXPECT_EQ(*OriginUrl(*c), std::nullopt);
  EXPECT_FALSE(FindCheckout(dir_));
}

}  // namespace
}  // namespace lore::store
