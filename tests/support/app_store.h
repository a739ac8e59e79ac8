// The fixtures of lore::app's use-case tests. AppStoreTest: a checkout
// without a remote under a temporary LORE_HOME and XDG_CACHE_HOME (each test
// is its own process: the environment is this test's), and its store,
// located but not yet made. RemoteStoreTest: the store of a remote's URL
// under a temporary LORE_HOME given as store::Env (the environment untouched),
// located but not yet made.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

#include "lore/app/store.h"
#include "lore/store/store.h"
#include "support/temp_dir.h"

namespace lore::testing {

class AppStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("LORE_HOME", (t_ / "stores").c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (t_ / "cache").c_str(), 1);
    repo_ = t_ / "repo";
    std::filesystem::create_directories(repo_ + "/.git");
    auto s = app::LocateWorkedIn(repo_);
    ASSERT_TRUE(s) << s.error().Format();
    store_ = std::move(*s);
  }

  TempDir t_;
  std::string repo_;
  std::optional<store::Store> store_;
};

class RemoteStoreTest : public ::testing::Test {
 protected:
  static constexpr const char* kRemote = "git@github.com:acme/widgets.git";

  void SetUp() override {
    store::Env env;
    env.lore_home = t_ / "stores";
    auto s = store::Store::Locate(kRemote, env);
    ASSERT_TRUE(s) << s.error().Format();
    store_ = std::move(*s);
  }

  TempDir t_;
  std::optional<store::Store> store_;
};

}  // namespace lore::testing
