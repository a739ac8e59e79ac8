// Black-box tests of lore's locks under concurrency (docs/formats.md,
// "Locks"): a hook never waits on a lock, an export is consistent while
// proposals are written, a review never trips over a lock another process
// releases.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

class LockTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    RunOptions o = IsolatedOptions(t_.path(), "stores", std::move(input));
    o.env["LORE_WAVE"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = std::nullopt;
    return o;
  }
  std::string Store(const std::string& rel) const {
    return t_ / ("stores/" + std::string(kKey) + "/" + rel);
  }
  RunResult Propose(int n) const {
    return Lore({"propose", kRepo, "--type", "convention", "--subject", "s" + std::to_string(n),
                 "--insight", "i", "--evidence", "e", "--confidence", "0.9", "--wave",
                 "W" + std::to_string(n % 3), "--quota-per-wave", "100000"},
                Opts());
  }
  // Runs proposals and reviews (which create and remove the write lock and
  // the wave summaries) in a loop on another thread until stopped; counts
  // the runs that failed.
  void StartWriter() {
    writer_ = std::thread([this] {
      for (int n = 0; !stop_; ++n) {
        bool ok =
            n % 4 == 3
                ? Lore({"review", kRepo, "--session", "s1", "--decline-all"}, Opts()).exit_code == 0
                : Propose(n).exit_code == 0;
        writes_ += 1;
        if (!ok) write_failures_ += 1;
      }
    });
  }
  void StopWriter() {
    stop_ = true;
    if (writer_.joinable()) writer_.join();
  }
  void TearDown() override { StopWriter(); }

  TempDir t_;
  std::thread writer_;
  std::atomic<bool> stop_{false};
  std::atomic<int> writes_{0}, write_failures_{0};
};

// How long the two sides of a race run: until both did 10, else for a second,
// and on past it (30 s at most) until both did 3: a sanitizer build on a
// loaded machine takes about a second a process.
class Rounds {
 public:
  bool More(int mine, int theirs) const {
    const auto now = Clock::now();
    if (now >= hard_ || (mine >= 10 && theirs >= 10)) return false;
    return now < soft_ || mine < 3 || theirs < 3;
  }

 private:
  Clock::time_point soft_ = Clock::now() + std::chrono::seconds(1);
  Clock::time_point hard_ = Clock::now() + std::chrono::seconds(30);
};

// While another process holds the lock of events.jsonl, the audit hook gives
// up at once (one warning line, exit 0) instead of waiting out the agent's
// hook timeout; the holder's own append is whole.
TEST_F(LockTest, PreToolUseGivesUpAtOnceWhileEventsJsonlIsLocked) {
  stdfs::create_directories(t_ / "repo/.git");  // a checkout without a remote
  Json payload = {{"session_id", "s"},
                  {"cwd", t_ / "repo"},
                  {"tool_name", "Bash"},
                  {"tool_input", {{"command", "lore propose . --subject x --wave W1"}}}};
  const auto unlocked_start = Clock::now();
  ASSERT_EQ(Lore({"hook", "pre-tool-use"}, Opts(payload.dump())).exit_code, 0);
  const auto unlocked = Clock::now() - unlocked_start;
  const std::string events =
      t_ / ("stores/tmp_" + stdfs::path(t_.path()).filename().string() + "_repo/events.jsonl");
  ASSERT_TRUE(stdfs::exists(events));

  int fd = ::open(events.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  const auto start = Clock::now();
  auto r = Lore({"hook", "pre-tool-use"}, Opts(payload.dump()));
  const auto took = Clock::now() - start;
  const std::string mine = "{\"event\":\"the holder's own line\"}\n";
  ASSERT_EQ(::write(fd, mine.data(), mine.size()), static_cast<ssize_t>(mine.size()));
  ::close(fd);

  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  // It waited 10 s, the whole hook timeout; now a few milliseconds, beside
  // the process's own start (about a second in the ASan build under load).
  EXPECT_LT(took, unlocked + std::chrono::milliseconds(1000));
  EXPECT_LT(took, std::chrono::seconds(8));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("lore: warning: events.jsonl is locked by another lore process", 0), 0u)
      << r.err;
  std::string after = t_.Read(stdfs::relative(events, t_.path()));
  ASSERT_EQ(std::count(after.begin(), after.end(), '\n'), 2) << after;
  EXPECT_EQ(after.substr(after.size() - mine.size()), mine);
}

// An export holds the store lock, and so now do propose and review while
// they create and remove their lock and summary files: every export
// succeeds, and its archive imports.
TEST_F(LockTest, ExportWhileProposalsAreWritten) {
  ASSERT_EQ(Propose(0).exit_code, 0);
  StartWriter();
  int exports = 0;
  for (Rounds rounds; rounds.More(exports, writes_);) {
    auto r = Lore({"export", kRepo, "-o", t_ / "a.tar.gz"}, Opts());
    ASSERT_EQ(r.exit_code, 0) << "export " << exports << ": " << r.err;
    ++exports;
  }
  StopWriter();
  EXPECT_GE(exports, 3);
  EXPECT_GE(writes_, 3);
  EXPECT_EQ(write_failures_, 0);
  RunOptions other = Opts();
  other.env["LORE_HOME"] = t_ / "other";
  auto im = Lore({"import", t_ / "a.tar.gz"}, other);
  ASSERT_EQ(im.exit_code, 0) << im.err;
  EXPECT_FALSE(stdfs::exists(t_ / ("other/" + std::string(kKey) + "/proposals-write.lock")));
}

// A review reads and clears the queue while another process takes and
// releases the write lock over and over: it waits its turn, never fails.
TEST_F(LockTest, ReviewWhileAnotherProcessTakesAndReleasesTheLock) {
  ASSERT_EQ(Propose(0).exit_code, 0);
  StartWriter();
  int reviews = 0;
  for (Rounds rounds; rounds.More(reviews, writes_);) {
    auto batches = Lore({"review", kRepo, "--batches"}, Opts());
    ASSERT_EQ(batches.exit_code, 0) << batches.err;
    auto r = Lore({"review", kRepo, "--session", "s2", "--approve-all"}, Opts());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ++reviews;
  }
  StopWriter();
  EXPECT_GE(reviews, 3);
  EXPECT_GE(writes_, 3);
  EXPECT_EQ(write_failures_, 0);
  EXPECT_FALSE(stdfs::exists(Store("proposals-write.lock")));
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
