// `lore check` reports the temporaries of writers that died, and
// `lore check --repair` removes them (leaving live writers' files alone).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;

constexpr const char* kRepo = "https://example.com/acme/app";
constexpr const char* kKey = "example.com_acme_app";

pid_t DeadPid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

class CheckRepairTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0); }
  RunOptions Opts() const { return IsolatedOptions(t_.path(), "stores"); }
  std::string Store(const std::string& rel) const {
    return t_ / ("stores/" + std::string(kKey) + "/" + rel);
  }
  static std::string Temp(const std::string& base, pid_t pid, int n) {
    char rnd[16];
    std::snprintf(rnd, sizeof rnd, "%08x", n);
    return "." + base + ".tmp." + std::to_string(pid) + "." + rnd;
  }

  TempDir t_;
};

TEST_F(CheckRepairTest, ReportsAndSweepsAKillStormsTemporariesButNotALiveWritersFile) {
  const pid_t dead = DeadPid();
  std::vector<std::string> planted;
  for (int i = 0; i < 200; ++i) planted.push_back(Store(Temp("raw.jsonl", dead, i)));
  planted.push_back(Store("memory/decisions/" + Temp("plan.md", dead, 7)));
  planted.push_back(Store(Temp("proposals-summary-W1.json", DeadPid(), 8)));
  const std::string live = Store(Temp("raw.jsonl", ::getpid(), 9));  // this test is alive
  const std::string import = t_ / ("stores/.import.new." + std::to_string(dead) + ".0000000a");
  for (const auto& p : planted) t_.Write(p.substr(t_.path().size() + 1), "half written");
  t_.Write(live.substr(t_.path().size() + 1), "being written");
  t_.Write(import.substr(t_.path().size() + 1) + "/raw.jsonl", "");

  auto check = Lore({"check", kRepo}, Opts());
  EXPECT_EQ(check.exit_code, 0) << check.err;  // warnings: the store itself is sound
  EXPECT_EQ(Count(check.err, "lore: warning: stale temporary"), planted.size() + 1) << check.err;
  EXPECT_EQ(Count(check.err, "\n"), planted.size() + 1) << check.err;  // one line each
  EXPECT_EQ(Count(check.err, "; run lore check --repair\n"), planted.size() + 1);
  EXPECT_NE(check.err.find(planted.back()), std::string::npos);
  EXPECT_NE(check.err.find(import), std::string::npos);
  EXPECT_EQ(check.err.find(live), std::string::npos);

  auto repair = Lore({"check", kRepo, "--repair"}, Opts());
  EXPECT_EQ(repair.exit_code, 0) << repair.err;
  EXPECT_EQ(repair.err, "");
  EXPECT_EQ(Count(repair.out, "removed: "), planted.size() + 1);
  EXPECT_NE(repair.out.find("ok: " + t_ / ("stores/" + std::string(kKey))), std::string::npos)
      << repair.out;
  for (const auto& p : planted) EXPECT_FALSE(stdfs::exists(p)) << p;
  EXPECT_FALSE(stdfs::exists(import));
  EXPECT_TRUE(stdfs::exists(live));

  auto again = Lore({"check", kRepo}, Opts());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err, "");  // nothing left to warn about
}

TEST_F(CheckRepairTest, RepairStillReportsWhatItCannotFix) {
  const std::string dead = Store(Temp("raw.jsonl", DeadPid(), 1));
  t_.Write(dead.substr(t_.path().size() + 1), "x");
  stdfs::remove(Store("okf/index.md"));
  auto repair = Lore({"check", kRepo, "--repair"}, Opts());
  EXPECT_EQ(repair.exit_code, 1);
  EXPECT_NE(repair.out.find("removed: " + dead), std::string::npos) << repair.out;
  EXPECT_NE(repair.err.find("okf/index.md"), std::string::npos) << repair.err;
  EXPECT_FALSE(stdfs::exists(dead));
}

}  // namespace
}  // namespace lore::testing
