#include "store/key.h"

#include <gtest/gtest.h>

namespace lore::store {
namespace {

std::string KeyOf(std::string_view remote) {
  auto k = KeyFromIdentity(NormaliseRemote(remote));
  return k ? *k : "<error>";
}

TEST(NormaliseRemote, ScpLike) {
  EXPECT_EQ(NormaliseRemote("git@github.com:acme/widgets.git"), "github.com/acme/widgets");
}

TEST(NormaliseRemote, HttpsAndHttpsWithUser) {
  EXPECT_EQ(NormaliseRemote("https://github.com/acme/widgets"), "github.com/acme/widgets");
  EXPECT_EQ(NormaliseRemote("https://bob:token@github.com/acme/widgets.git"),
            "github.com/acme/widgets");
}

TEST(NormaliseRemote, Ssh) {
  EXPECT_EQ(NormaliseRemote("ssh://git@github.com/acme/widgets.git"), "github.com/acme/widgets");
}

TEST(NormaliseRemote, TrimsWhitespaceAndTrailingGit) {
  EXPECT_EQ(NormaliseRemote("  \thttps://github.com/acme/widgets.git \n"),
            "github.com/acme/widgets");
  EXPECT_EQ(NormaliseRemote("widgets.git"), "widgets");
}

TEST(NormaliseRemote, OtherTextStaysAsIs) {
  EXPECT_EQ(NormaliseRemote("/home/ann/src/widgets"), "/home/ann/src/widgets");
  EXPECT_EQ(NormaliseRemote("plain-name"), "plain-name");
}

TEST(KeyFromIdentity, SameKeyForScpAndHttps) {
  EXPECT_EQ(KeyOf("git@github.com:acme/widgets.git"), "github.com_acme_widgets");
  EXPECT_EQ(KeyOf("https://github.com/acme/widgets"), "github.com_acme_widgets");
}

TEST(KeyFromIdentity, PathsAndRunsOfOtherCharacters) {
  EXPECT_EQ(KeyOf("/home/ann/my project//x"), "home_ann_my_project_x");
  EXPECT_EQ(KeyOf("ünï/côdé"), "n_c_d");
  EXPECT_EQ(KeyOf("..-_a.b_-.."), "a.b");
}

TEST(KeyFromIdentity, EmptyKeyIsAnError) {
  for (std::string_view bad : {"", "   ", "///", "._-", "ü"}) {
    auto k = KeyFromIdentity(NormaliseRemote(bad));
    ASSERT_FALSE(k.has_value()) << bad;
    EXPECT_EQ(k.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(k.error().Format().find("empty store key"), std::string::npos);
  }
}

TEST(KeyFromIdentity, KeyAtTheLimitIsAccepted) {
  std::string id = "host/" + std::string(kMaxKeyBytes - 5, 'a');
  auto k = KeyFromIdentity(id);
  ASSERT_TRUE(k) << k.error().Format();
  EXPECT_EQ(k->size(), kMaxKeyBytes);
}

TEST(KeyFromIdentity, KeyLongerThanAFolderNameMayBeIsRefusedWithARepair) {
  std::string id = "example.com/" + std::string(300, 'x');
  auto k = KeyFromIdentity(id);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().code, ErrorCode::kInvalidInput);
  std::string line = k.error().Format();
  EXPECT_NE(line.find("312 bytes long"), std::string::npos) << line;
  EXPECT_NE(line.find(std::to_string(kMaxKeyBytes)), std::string::npos) << line;
  EXPECT_NE(line.find("git remote set-url origin"), std::string::npos) << line;
  EXPECT_FALSE(k.error().repair.empty());
}

TEST(KeyFromIdentity, LongestKeyStillLeavesRoomForItsHiddenSiblings) {
  // .<key>.replaced.<pid>.<random> must fit in NAME_MAX (255) too.
  EXPECT_LE(kMaxKeyBytes + std::string(".replaced.4294967295.ffffffff").size() + 1, 255u);
}

// Spellings of one remote record one identity; remotes the key confuses do not.
TEST(RecordedIdentity, TellsApartWhatTheKeyConfuses) {
  EXPECT_EQ(RecordedIdentity("gitlab.com/foo/bar_baz"), "gitlab.com/foo/bar_baz");
  EXPECT_NE(RecordedIdentity("gitlab.com/foo/bar_baz"), RecordedIdentity("gitlab.com/foo_bar/baz"));
  EXPECT_EQ(*KeyFromIdentity("gitlab.com/foo/bar_baz"), *KeyFromIdentity("gitlab.com/foo_bar/baz"));
  EXPECT_EQ(RecordedIdentity("github.com/a/b/"), "github.com/a/b");
  EXPECT_EQ(RecordedIdentity("github.com//a/b"), "github.com/a/b");
  EXPECT_EQ(RecordedIdentity("/home/me/my proj"), "home/me/my proj");
  EXPECT_NE(RecordedIdentity("/home/me/my proj"), RecordedIdentity("/home/me/my/proj"));
  EXPECT_EQ(RecordedIdentity(NormaliseRemote("git@github.com:a/b.git")),
            RecordedIdentity(NormaliseRemote("https://github.com/a/b")));
}

}  // namespace
}  // namespace lore::store
