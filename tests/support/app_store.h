// The fixture of lore::app's use-case tests: a checkout without a remote
// under a temporary LORE_HOME and XDG_CACHE_HOME (each test is its own
// process: the environment is this test's), and its store, located but not
// yet made.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

#include "lore/app/store.h"
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

}  // namespace lore::testing
