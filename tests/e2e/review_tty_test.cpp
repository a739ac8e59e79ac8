// The interactive review driven in a real terminal: tmux runs `lore review`
// in a pane, send-keys types, capture-pane reads the screen.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;
using namespace std::chrono_literals;
constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class ReviewTtyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!stdfs::exists("/usr/bin/tmux")) {
      // scripts/install-deps.sh installs it: in CI its absence is a failure.
      if (std::getenv("CI") != nullptr) FAIL() << "tmux is missing in CI";
      GTEST_SKIP() << "tmux is not installed";
    }
    socket_ = "lore-test-" + std::to_string(::getpid()) + "-" +
              stdfs::path(t_.path()).filename().string();
  }
  void TearDown() override {
    if (!socket_.empty()) Tmux({"kill-server"});
  }
  RunResult Tmux(std::vector<std::string> args) {
    args.insert(args.begin(), {"/usr/bin/tmux", "-L", socket_});
    RunOptions o;
    o.env["TMUX"] = std::nullopt;
    return lore::testing::Run(args, o);
  }
  RunOptions Opts() const {
    RunOptions o;
    o.env["LORE_HOME"] = t_ / "stores";
    o.env["HOME"] = t_ / "home";
    return o;
  }
  std::string Read(const std::string& rel) const {
    return t_.Read("stores/" + std::string(kKey) + "/" + rel);
  }
  std::vector<std::string> Queue(int n) {
    std::vector<std::string> ids;
    for (int i = 0; i < n; ++i) {
      auto r = Lore(
          {"propose", kRepo, "--type", "convention", "--subject", "item " + std::to_string(i + 1),
           "--insight", "i", "--evidence", "evidence " + std::to_string(i + 1), "--confidence",
           "0.8", "--wave", "W" + std::to_string(i / 4)},
          Opts());
      EXPECT_EQ(r.exit_code, 0) << r.out;
      ids.push_back(Json::parse(r.out)["id"].get<std::string>());
      std::this_thread::sleep_for(2ms);  // distinct created_at: a fixed FIFO order
    }
    return ids;
  }
  // Starts the review in a 160x50 pane; the shell records the terminal
  // settings before and after, and the exit code.
  void Start(const std::string& session = " --session tty-1") {
    const std::string cmd = "stty -g > " + Quote(t_ / "before") +
                            "; LORE_HOME=" + Quote(t_ / "stores") + " " + Quote(LoreBinary()) +
                            " review " + Quote(kRepo) + session + "; echo $? > " +
                            Quote(t_ / "exit.tmp") + "; stty -g > " + Quote(t_ / "after") +
                            "; mv " + Quote(t_ / "exit.tmp") + " " + Quote(t_ / "exit");
    auto r =
        Tmux({"new-session", "-d", "-x", "160", "-y", "50", "-s", "review", "sh -c " + Quote(cmd)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::string Screen() { return Tmux({"capture-pane", "-p", "-t", "review"}).out; }
  bool WaitFor(const std::string& text) {
    for (int i = 0; i < 200; ++i) {
      if (Screen().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(25ms);
    }
    return false;
  }
  void Keys(std::vector<std::string> keys) {
    keys.insert(keys.begin(), {"send-keys", "-t", "review"});
    ASSERT_EQ(Tmux(keys).exit_code, 0);
  }
  int WaitExit() {
    for (int i = 0; i < 400 && !stdfs::exists(t_ / "exit"); ++i) std::this_thread::sleep_for(25ms);
    if (!stdfs::exists(t_ / "exit")) return -1;
    return std::stoi(t_.Read("exit"));
  }
  void ExpectTerminalRestored() {
    ASSERT_TRUE(stdfs::exists(t_ / "after"));
    EXPECT_EQ(t_.Read("before"), t_.Read("after"));
  }

  TempDir t_;
  std::string socket_;
};

TEST_F(ReviewTtyTest, TwoBatchesWithNumbersArrowsAndEnter) {
  auto ids = Queue(6);
  const std::string before = Read("proposals.jsonl");
  Start();
  ASSERT_TRUE(WaitFor("Batch 1 of 2 \u2014 which learnings should be stored permanently?"))
      << Screen();
  std::string screen = Screen();
  // Each proposal whole: its type and confidence, subject, insight and evidence.
  EXPECT_NE(screen.find("> [ ] 1. convention, confidence 0.80\n         item 1\n         "
                        "insight: i\n         evidence: evidence 1\n"),
            std::string::npos)
      << screen;
  Keys({"1", "Down", "Down", "Space"});
  ASSERT_TRUE(WaitFor("> [x] 3.")) << Screen();
  screen = Screen();
  EXPECT_NE(screen.find("  [x] 1."), std::string::npos) << screen;
  EXPECT_NE(screen.find("  [ ] 2."), std::string::npos) << screen;
  Keys({"Enter"});
  ASSERT_TRUE(WaitFor("Batch 2 of 2")) << Screen();
  Keys({"2", "Enter"});
  ASSERT_EQ(WaitExit(), 0) << Screen();
  ExpectTerminalRestored();
  std::string learnings = Read("learnings.jsonl");
  std::string rejected = Read("proposals.rejected.jsonl");
  for (int i : {0, 2, 5}) EXPECT_NE(learnings.find(ids[i]), std::string::npos) << i;
  for (int i : {1, 3, 4}) EXPECT_NE(rejected.find(ids[i]), std::string::npos) << i;
  EXPECT_EQ(std::count(learnings.begin(), learnings.end(), '\n'), 3);
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_EQ(Read("proposals-archive.jsonl"), before);
  EXPECT_NE(learnings.find("\"source_session\":\"tty-1\""), std::string::npos);
}

// What a person types: no session id. The long insight is shown in full,
// wrapped to the pane's 160 columns, and the kept learning is recorded as
// manual-review.
TEST_F(ReviewTtyTest, WithoutASessionTheWholeProposalIsShownAndKept) {
  std::string insight;
  for (int i = 0; i < 40; ++i) insight += "word" + std::to_string(i) + " ";
  insight += "end-of-insight";
  auto r = Lore({"propose", kRepo, "--type", "architecture-pattern", "--subject",
                 "a subject that is longer than the forty columns of a label", "--insight", insight,
                 "--evidence", "seen twice", "--confidence", "0.9", "--wave", "W1"},
                Opts());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  Start("");
  ASSERT_TRUE(WaitFor("end-of-insight")) << Screen();
  const std::string screen = Screen();
  EXPECT_NE(screen.find("> [ ] 1. architecture-pattern, confidence 0.90\n"), std::string::npos)
      << screen;
  EXPECT_NE(screen.find("         a subject that is longer than the forty columns of a label\n"),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("         insight: word0 word1 "), std::string::npos) << screen;
  EXPECT_NE(screen.find("\n                  word"), std::string::npos) << screen;  // wrapped
  EXPECT_NE(screen.find("         evidence: seen twice"), std::string::npos) << screen;
  Keys({"a"});
  ASSERT_EQ(WaitExit(), 0) << Screen();
  ExpectTerminalRestored();
  EXPECT_NE(Read("learnings.jsonl").find("\"source_session\":\"manual-review\""),
            std::string::npos);
}

TEST_F(ReviewTtyTest, QuitInTheSecondBatchChangesNothing) {
  Queue(5);
  const std::string before = Read("proposals.jsonl");
  Start();
  ASSERT_TRUE(WaitFor("Batch 1 of 2")) << Screen();
  Keys({"a"});
  ASSERT_TRUE(WaitFor("Batch 2 of 2")) << Screen();
  Keys({"q"});
  ASSERT_EQ(WaitExit(), 0);
  ExpectTerminalRestored();
  EXPECT_EQ(Read("proposals.jsonl"), before);
  EXPECT_FALSE(stdfs::exists(t_ / ("stores/" + std::string(kKey) + "/learnings.jsonl")));
}

TEST_F(ReviewTtyTest, TerminalRestoredWhenKilledBySignal) {
  Queue(2);
  const std::string before = Read("proposals.jsonl");
  Start();
  ASSERT_TRUE(WaitFor("Which learnings should be stored permanently?")) << Screen();
  // The pane runs sh; lore is its child.
  std::string shell_pid = Tmux({"list-panes", "-t", "review", "-F", "#{pane_pid}"}).out;
  shell_pid.erase(shell_pid.find_last_not_of("\n") + 1);
  std::ifstream children("/proc/" + shell_pid + "/task/" + shell_pid + "/children");
  pid_t lore = 0;
  children >> lore;
  ASSERT_GT(lore, 0);
  ASSERT_EQ(::kill(lore, SIGTERM), 0);
  EXPECT_EQ(WaitExit(), 128 + SIGTERM);
  ExpectTerminalRestored();
  EXPECT_EQ(Read("proposals.jsonl"), before);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
