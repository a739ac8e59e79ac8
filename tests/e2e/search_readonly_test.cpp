// `lore search` on a store it cannot write answers from the index it has (or
// from one built in memory) with one warning, instead of failing. Root may
// write anywhere, so as root the search runs as an unprivileged user that
// owns the store, with every folder and file of it made read-only.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;

constexpr const char* kRepo = "https://example.com/acme/app";
constexpr const char* kKey = "example.com_acme_app";
constexpr int kNobody = 65534;

class SearchReadOnlyTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    return IsolatedOptions(t_.path(), "stores", std::move(input));
  }
  std::string Store(const std::string& rel) const {
    return t_ / ("stores/" + std::string(kKey) + "/" + rel);
  }
  void Capture(const std::string& summary) {
    auto r = Lore({"append-review", kRepo}, Opts("{\"summary\":\"" + summary + "\"}"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // Makes the whole tree read-only for the user the search runs as.
  RunOptions ReadOnly() {
    RunOptions o = Opts();
    if (::geteuid() == 0) o.as_uid = kNobody;
    for (auto& e : stdfs::recursive_directory_iterator(t_.path())) {
      if (::geteuid() == 0) ::lchown(e.path().c_str(), kNobody, kNobody);
      ::chmod(e.path().c_str(), e.is_directory() ? 0500 : 0400);
    }
    if (::geteuid() == 0) ::chown(t_.path().c_str(), kNobody, kNobody);
    ::chmod(t_.path().c_str(), 0500);
    return o;
  }
  void SkipUnlessReachable(const RunOptions& o) {
    if (Lore({"--version"}, o).exit_code == 127) {
      GTEST_SKIP() << "the lore binary is not reachable by an unprivileged user here";
    }
  }
  void TearDown() override {  // so that the folder can be removed
    ::chmod(t_.path().c_str(), 0700);
    for (auto& e : stdfs::recursive_directory_iterator(t_.path())) {
      if (e.is_directory()) ::chmod(e.path().c_str(), 0700);
    }
  }

  TempDir t_;
};

TEST_F(SearchReadOnlyTest, StaleIndexAnswersAsItIsWithOneWarning) {
  Capture("zebra crossing broke");
  ASSERT_EQ(Lore({"search", kRepo, "zebra"}, Opts()).exit_code, 0);  // the index exists now
  Capture("giraffe escaped");                                        // and is out of date
  RunOptions o = ReadOnly();
  SkipUnlessReachable(o);
  auto r = Lore({"search", kRepo, "zebra", "giraffe", "--json"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("raw.jsonl:1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("raw.jsonl:2"), std::string::npos) << r.out;  // not indexed yet
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("lore: warning: the search index is out of date and cannot be updated", 0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find(Store("index.sqlite")), std::string::npos) << r.err;
}

TEST_F(SearchReadOnlyTest, CurrentIndexAnswersWithoutAWarning) {
  Capture("zebra crossing broke");
  // Files changed within the second of an update are indexed as "look again"
  // (mtime -1): date them back so that the index is current after one search.
  for (const char* rel : {"raw.jsonl", "okf/index.md"}) {
    stdfs::last_write_time(Store(rel), stdfs::last_write_time(Store(rel)) - std::chrono::hours(1));
  }
  ASSERT_EQ(Lore({"search", kRepo, "zebra"}, Opts()).exit_code, 0);
  RunOptions o = ReadOnly();
  SkipUnlessReachable(o);
  auto r = Lore({"search", kRepo, "zebra", "--json"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("raw.jsonl:1"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST_F(SearchReadOnlyTest, NoIndexAnswersFromAFreshOneInMemory) {
  Capture("zebra crossing broke");
  ASSERT_FALSE(stdfs::exists(Store("index.sqlite")));
  RunOptions o = ReadOnly();
  SkipUnlessReachable(o);
  auto r = Lore({"search", kRepo, "zebra", "--json"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("raw.jsonl:1"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("answered from a fresh index in memory"), std::string::npos) << r.err;
  EXPECT_FALSE(stdfs::exists(Store("index.sqlite")));
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
