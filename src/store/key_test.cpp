#include "lore/store/key.h"

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

}  // namespace
}  // namespace lore::store
