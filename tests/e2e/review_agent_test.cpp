// Black-box tests of the review rendered by an agent: `lore review --batches
// --json` prints seed 000's AskUserQuestion inputs, `--answers` applies the
// picks through the promote-and-clear guard (docs/proposals.md).
#include <gtest/gtest.h>
#include <signal.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;
constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

std::string Id(int n) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08d-1111-4111-8111-111111111111", n);
  return buf;
}

// A queue line as the original tool writes it.
std::string Line(int n, const std::string& type, const std::string& subject, double conf,
                 const std::string& evidence) {
  Json r = Json::object();
  r["id"] = Id(n);
  r["created_at"] = "2026-05-0" + std::to_string(n) + "T10:00:00.000Z";
  r["wave_id"] = "W1";
  r["type"] = type;
  r["subject"] = subject;
  r["insight"] = "insight " + std::to_string(n);
  r["evidence"] = evidence;
  r["confidence"] = conf;
  r["schema_version"] = 1;
  return r.dump() + "\n";
}

class ReviewAgentTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    RunOptions o = IsolatedOptions(t_.path(), "stores", std::move(input));
    o.env["LORE_WAVE"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = std::nullopt;
    return o;
  }
  std::string Store() const { return t_ / ("stores/" + std::string(kKey)); }
  std::string Read(const std::string& rel) const {
    return t_.Read("stores/" + std::string(kKey) + "/" + rel);
  }
  // Six proposals in a fixed order: two batches, of 4 and 2.
  void QueueSix() {
    ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
    std::string q = Line(1, "anti-pattern", "reducer always re-evaluates on unrelated state", 0.85,
                         "3 consecutive sessions hit the same pattern in W2") +
                    Line(2, "convention", "npm audit --prod before every deploy", 0.92,
                         "the audit caught two advisories that the lockfile hid from the dev "
                         "dependencies last week") +
                    Line(3, "proven-pattern", "tsgo 3-5x faster than tsc for type check", 0.775,
                         "timed on the monorepo") +
                    Line(4, "fragile-file", "src/cli/app.cpp", 0.6, "four merge conflicts") +
                    Line(5, "workflow-pattern", "run ctest -j2", 1, "two cores") +
                    Line(6, "hardware-pattern", "ccache on a shared box", 0.5, "load 15");
    t_.Write("stores/" + std::string(kKey) + "/proposals.jsonl", q);
  }
  Json Batches() {
    auto r = Lore({"review", kRepo, "--batches", "--json"}, Opts());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Json::parse(r.out);
  }
  // Every file of the store with its bytes.
  std::map<std::string, std::string> Snapshot() const {
    std::map<std::string, std::string> out;
    for (const auto& e : stdfs::recursive_directory_iterator(Store())) {
      if (!e.is_regular_file()) continue;
      const std::string rel = stdfs::relative(e.path(), Store()).string();
      out[rel] = t_.Read("stores/" + std::string(kKey) + "/" + rel);
    }
    return out;
  }
  RunResult Apply(const std::string& answers, const std::string& session = "agent-1") {
    t_.Write("answers.json", answers);
    return Lore({"review", kRepo, "--session", session, "--answers", t_ / "answers.json", "--json"},
                Opts());
  }
  static size_t Count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }
  TempDir t_;
};

TEST_F(ReviewAgentTest, SixPendingGiveTwoBatchesWithTheExactTexts) {
  QueueSix();
  const auto before = Snapshot();
  Json b = Batches();
  ASSERT_EQ(b.size(), 2u) << b.dump();
  EXPECT_EQ(Snapshot(), before);  // --batches writes nothing
  const std::string queue = b[0]["queue"].get<std::string>();
  EXPECT_EQ(queue.size(), 16u);
  EXPECT_EQ(b[1]["queue"], queue);
  EXPECT_EQ(b[0]["batch"], 1);
  EXPECT_EQ(b[0]["of"], 2);
  EXPECT_EQ(b[0]["ids"], Json({Id(1), Id(2), Id(3), Id(4)}));
  EXPECT_EQ(b[1]["ids"], Json({Id(5), Id(6)}));
  EXPECT_EQ(
      b[0]["input"].dump(-1, ' ', true),
      R"({"questions":[{"question":"Batch 1 of 2 \u2014 which learnings should be stored permanently? Unselected ones are archived as declined.","header":"Memory 1/2","multiSelect":true,"options":[)"
      R"({"label":"[anti-pa] | reducer always re-evaluates on unrelate\u2026 | conf=0.85","description":"evidence: 3 consecutive sessions hit the same pattern in W2"},)"
      R"({"label":"[convent] | npm audit --prod before every deploy     | conf=0.92","description":"evidence: the audit caught two advisories that the lockfile hid from \u2026"},)"
      R"({"label":"[proven-] | tsgo 3-5x faster than tsc for type check | conf=0.78","description":"evidence: timed on the monorepo"},)"
      R"({"label":"[fragile] | src/cli/app.cpp                          | conf=0.60","description":"evidence: four merge conflicts"}]}]})");
  EXPECT_EQ(
      b[1]["input"].dump(-1, ' ', true),
      R"({"questions":[{"question":"Batch 2 of 2 \u2014 which learnings should be stored permanently? Unselected ones are archived as declined.","header":"Memory 2/2","multiSelect":true,"options":[)"
      R"({"label":"[workflo] | run ctest -j2                            | conf=1.00","description":"evidence: two cores"},)"
      R"({"label":"[hardwar] | ccache on a shared box                   | conf=0.50","description":"evidence: load 15"}]}]})");
}

TEST_F(ReviewAgentTest, EmptyQueueGivesAnEmptyArray) {
  auto none = Lore({"review", kRepo, "--batches", "--json"}, Opts());
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "[]\n");
  EXPECT_FALSE(stdfs::exists(Store()));  // no store is created
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  auto empty = Lore({"review", kRepo, "--batches"}, Opts());
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_EQ(empty.out, "[]\n");
}

TEST_F(ReviewAgentTest, OneBatchAndALoneProposal) {
  QueueSix();
  const std::string q = Read("proposals.jsonl");
  t_.Write("stores/" + std::string(kKey) + "/proposals.jsonl", q.substr(0, q.find('\n') + 1));
  Json b = Batches();
  ASSERT_EQ(b.size(), 1u);
  const Json& question = b[0]["input"]["questions"][0];
  EXPECT_EQ(question["question"],
            "Which learnings should be stored permanently? Unselected ones are archived as "
            "declined.");
  EXPECT_EQ(question["header"], "Memory");
  ASSERT_EQ(question["options"].size(), 2u);  // a question needs two options
  EXPECT_EQ(question["options"][1]["label"], "Keep none");
  // Picking "Keep none" declines it.
  auto r = Apply(R"({"queue":")" + b[0]["queue"].get<std::string>() +
                 R"(","batches":[{"batch":1,"picked":["Keep none"]}]})");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(Read("proposals.rejected.jsonl").find(Id(1)), std::string::npos);
  EXPECT_FALSE(stdfs::exists(Store() + "/learnings.jsonl"));
}

TEST_F(ReviewAgentTest, EqualLabelsAreMadeUnique) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  t_.Write("stores/" + std::string(kKey) + "/proposals.jsonl",
           Line(1, "convention", "same subject", 0.8, "a") +
               Line(2, "convention", "same subject", 0.8, "b"));
  Json b = Batches();
  const Json& options = b[0]["input"]["questions"][0]["options"];
  EXPECT_EQ(options[0]["label"],
            "[convent] | same subject                             | conf=0.80 #00000001");
  EXPECT_EQ(options[1]["label"],
            "[convent] | same subject                             | conf=0.80 #00000002");
  auto r = Apply(R"({"queue":")" + b[0]["queue"].get<std::string>() +
                 R"(","batches":[{"batch":1,"picked":[)" + options[1]["label"].dump() + "]}]}");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(Read("learnings.jsonl").find(Id(2)), std::string::npos);
  EXPECT_EQ(Read("learnings.jsonl").find(Id(1)), std::string::npos);
}

TEST_F(ReviewAgentTest, AnswersAreAppliedThroughTheGuard) {
  QueueSix();
  const std::string queue = Read("proposals.jsonl");
  Json b = Batches();
  const Json& o1 = b[0]["input"]["questions"][0]["options"];
  // Batch 1: two labels; batch 2: one id (its first eight characters).
  const std::string answers = R"({"queue":")" + b[0]["queue"].get<std::string>() +
                              R"(","batches":[{"batch":1,"picked":[)" + o1[0]["label"].dump() +
                              "," + o1[2]["label"].dump() + R"(]},{"batch":2,"picked":[")" +
                              Id(6).substr(0, 8) + R"("]}]})";
  auto r = Apply(answers);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  Json result = Json::parse(r.out);
  EXPECT_EQ(result["written"], 3);
  EXPECT_EQ(result["expected"], 3);
  EXPECT_EQ(result["declined"], 3);
  EXPECT_EQ(result["cleared"], true);
  EXPECT_EQ(result["skippedReason"], nullptr);
  const std::string learnings = Read("learnings.jsonl");
  const std::string rejected = Read("proposals.rejected.jsonl");
  for (int n : {1, 3, 6}) EXPECT_EQ(Count(learnings, Id(n)), 1u) << n;
  for (int n : {2, 4, 5}) EXPECT_EQ(Count(rejected, Id(n)), 1u) << n;
  EXPECT_EQ(Count(learnings, "\"source_session\":\"agent-1\""), 3u);
  EXPECT_EQ(Count(rejected, "\"_rejected_reason\":\"user-declined\""), 3u);
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_EQ(Read("proposals-archive.jsonl"), queue);
}

TEST_F(ReviewAgentTest, ClaudeCodeAnswersMapOnStdin) {
  QueueSix();
  Json b = Batches();
  const Json& q1 = b[0]["input"]["questions"][0];
  const Json& q2 = b[1]["input"]["questions"][0];
  Json answers = Json::object();
  answers["queue"] = b[0]["queue"];
  // Labels joined with ", " as Claude Code returns them; nothing picked in batch 2.
  answers[q1["question"].get<std::string>()] = q1["options"][1]["label"].get<std::string>() + ", " +
                                               q1["options"][3]["label"].get<std::string>();
  answers[q2["question"].get<std::string>()] = "";
  auto r = Lore({"review", kRepo, "--session", "map-1", "--answers", "-"}, Opts(answers.dump()));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::string learnings = Read("learnings.jsonl");
  EXPECT_EQ(Count(learnings, "\n"), 2u);
  for (int n : {2, 4}) EXPECT_EQ(Count(learnings, Id(n)), 1u) << n;
  EXPECT_EQ(Count(Read("proposals.rejected.jsonl"), "\n"), 4u);
  EXPECT_EQ(Read("proposals.jsonl"), "");
}

TEST_F(ReviewAgentTest, StaleOrPartialAnswersChangeNothing) {
  QueueSix();
  Json b = Batches();
  const std::string queue = b[0]["queue"].get<std::string>();
  const std::string label = b[0]["input"]["questions"][0]["options"][0]["label"].dump();
  const auto before = Snapshot();
  struct Case {
    std::string answers, message;
  };
  const std::vector<Case> cases = {
      {R"({"queue":")" + queue +
           R"(","batches":[{"batch":1,"picked":["[nope] | x | conf=0.10"]},{"batch":2,"picked":[]}]})",
       R"(batch 1: "[nope] | x | conf=0.10" matches no option of this batch)"},
      {R"({"queue":")" + queue + R"(","batches":[{"batch":1,"picked":[)" + label + "]}]}",
       "batch 2 of 2 is not answered"},
      {R"({"queue":"0123456789abcdef","batches":[{"batch":1,"picked":[]},{"batch":2,"picked":[]}]})",
       "the queue changed since the batches were made"},
      {R"({"batches":[{"batch":1,"picked":[]},{"batch":2,"picked":[]}]})", "no \"queue\""},
      {R"({"queue":")" + queue + R"(","batches":[{"batch":1,"picked":[]},{"batch":2,"picked":[")" +
           Id(1) + R"("]}]})",
       "is a proposal of batch 1, not of this one"},
      {R"({"queue":")" + queue +
           R"(","batches":[{"batch":1,"picked":[]},{"batch":1,"picked":[]}]})",
       "batch 1 is answered twice"},
      {"[1,2]", "the answers are not a JSON object"},
      {"{\"queue\":", "answers.json"},
  };
  for (const auto& c : cases) {
    auto r = Apply(c.answers);
    EXPECT_EQ(r.exit_code, 1) << c.answers << r.out;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.answers << "\n" << r.err;
    EXPECT_NE(r.err.find("nothing was changed"), std::string::npos) << r.err;
    EXPECT_EQ(Snapshot(), before) << c.answers;
  }
  // The queue changed after --batches: a new proposal, or one reviewed meanwhile.
  auto added = Lore({"propose", kRepo, "--type", "convention", "--subject", "late", "--insight",
                     "i", "--evidence", "e", "--confidence", "0.9", "--wave", "W2"},
                    Opts());
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto grown = Snapshot();
  const std::string all =
      R"({"queue":")" + queue + R"(","batches":[{"batch":1,"picked":[]},{"batch":2,"picked":[]}]})";
  auto r = Apply(all);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the queue changed since the batches were made"), std::string::npos)
      << r.err;
  EXPECT_EQ(Snapshot(), grown);
}

TEST_F(ReviewAgentTest, PartialAnswersLeaveTheRestQueued) {
  QueueSix();
  Json b = Batches();
  const std::string label = b[0]["input"]["questions"][0]["options"][0]["label"].dump();
  t_.Write("answers.json", R"({"queue":")" + b[0]["queue"].get<std::string>() +
                               R"(","batches":[{"batch":1,"picked":[)" + label + "]}]}");
  auto r = Lore({"review", kRepo, "--session", "p-1", "--answers", t_ / "answers.json", "--partial",
                 "--json"},
                Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["kept"], 2);
  const std::string left = Read("proposals.jsonl");
  EXPECT_EQ(Count(left, "\n"), 2u);
  EXPECT_NE(left.find(Id(5)), std::string::npos);
  EXPECT_NE(left.find(Id(6)), std::string::npos);
  EXPECT_EQ(Count(Read("learnings.jsonl"), Id(1)), 1u);
  // The rest is reviewed with fresh batches.
  Json again = Batches();
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0]["ids"], Json({Id(5), Id(6)}));
}

TEST_F(ReviewAgentTest, KilledWhileApplyingThenAppliedAgainLosesAndDoublesNothing) {
  for (const std::string hook : {"after-learning-2:crash", "review-after-archive:crash"}) {
    SCOPED_TRACE(hook);
    stdfs::remove_all(Store());
    QueueSix();
    const std::string queue = Read("proposals.jsonl");
    Json b = Batches();
    const Json& o1 = b[0]["input"]["questions"][0]["options"];
    const std::string answers = R"({"queue":")" + b[0]["queue"].get<std::string>() +
                                R"(","batches":[{"batch":1,"picked":[)" + o1[0]["label"].dump() +
                                "," + o1[1]["label"].dump() + "," + o1[3]["label"].dump() +
                                R"(]},{"batch":2,"picked":[]}]})";
    t_.Write("answers.json", answers);
    RunOptions crash = Opts();
    crash.env["LORE_TEST_HOOK"] = hook;  // obeyed by the test build only
    auto killed =
        LoreTest({"review", kRepo, "--session", "k-1", "--answers", t_ / "answers.json"}, crash);
    ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << killed.err << killed.out;
    auto again = Apply(answers, "k-1");
    ASSERT_EQ(again.exit_code, 0) << again.err << again.out;
    const std::string learnings = Read("learnings.jsonl");
    const std::string rejected = Read("proposals.rejected.jsonl");
    for (int n : {1, 2, 4}) EXPECT_EQ(Count(learnings, Id(n)), 1u) << n << learnings;
    for (int n : {3, 5, 6}) EXPECT_EQ(Count(rejected, Id(n)), 1u) << n << rejected;
    EXPECT_EQ(Count(learnings, "\n"), 3u);
    EXPECT_EQ(Count(rejected, "\n"), 3u);
    EXPECT_EQ(Read("proposals.jsonl"), "");
    EXPECT_EQ(Read("proposals-archive.jsonl"), queue);
  }
}

TEST_F(ReviewAgentTest, BatchesTakesNoDecisionFlags) {
  auto r = Lore({"review", kRepo, "--batches", "--approve-all"}, Opts());
  EXPECT_EQ(r.exit_code, 2);
  auto p = Lore({"review", kRepo, "--session", "s", "--answers", "-", "--approve-all"}, Opts());
  EXPECT_EQ(p.exit_code, 2);
  auto q = Lore({"review", kRepo, "--session", "s", "--partial", "--approve-all"}, Opts());
  EXPECT_EQ(q.exit_code, 2);
}

// Lines the original's collector shows and its promotion accepts, though
// lore would never write them, are reviewed and cleared (docs/proposals.md, "What a promotion
// accepts").
TEST_F(ReviewAgentTest, ForeignLinesNeverBlockAClear) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  const std::string queue =
      R"({"confidence":0.7,"type":"convention","subject":"keys in another order","id":"a0000000-0000-4000-8000-000000000001","insight":"i","evidence":"e","created_at":"2026-05-01T00:00:00.000Z","tags":["x"],"extra":{"n":1}})"
      "\n"
      R"({"id":"p-2","type":"convention","subject":"no time, no wave","insight":"i","evidence":"e","confidence":1})"
      "\n"
      R"({"id":"p-3","created_at":"2026-05-02T12:00:00+02:00","wave_id":"W1.2","type":"pattern","subject":"offset time, unknown type","insight":"a\nb","evidence":"e","confidence":0,"schema_version":2,"file_paths":[]})"
      "\n"
      R"({"id":"p-4","created_at":"2026-05-03T00:00:00Z","type":"convention","subject":")" +
      std::string(150, 's') + R"(","insight":"i","evidence":"e","confidence":0.5})" + "\n";
  t_.Write("stores/" + std::string(kKey) + "/proposals.jsonl", queue);
  Json b = Batches();
  ASSERT_EQ(b.size(), 1u);
  Json picked = Json::array();
  for (const auto& o : b[0]["input"]["questions"][0]["options"]) picked.push_back(o["label"]);
  Json answers = {{"queue", b[0]["queue"]}, {"batches", {{{"batch", 1}, {"picked", picked}}}}};
  auto r = Apply(answers.dump());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(Json::parse(r.out)["written"], 4);
  EXPECT_EQ(Count(Read("learnings.jsonl"), "\n"), 4u);
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_EQ(Read("proposals-archive.jsonl"), queue);
}

// A line the original's promotion refuses (a number written as a string)
// blocks the clear only when it is approved, as in the original.
TEST_F(ReviewAgentTest, ALineTheOriginalRefusesBlocksOnlyWhenApproved) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  const std::string queue =
      R"({"id":"p-1","type":"convention","subject":"string conf","insight":"i","evidence":"e","confidence":"0.85"})"
      "\n";
  t_.Write("stores/" + std::string(kKey) + "/proposals.jsonl", queue);
  auto approved = Lore({"review", kRepo, "--session", "s", "--approve-all", "--json"}, Opts());
  EXPECT_EQ(approved.exit_code, 1);
  EXPECT_NE(approved.out.find("confidence must be a number in [0, 1], got: \\\"0.85\\\""),
            std::string::npos)
      << approved.out;
  EXPECT_EQ(Read("proposals.jsonl"), queue);
  Json b = Batches();
  auto declined = Apply(R"({"queue":")" + b[0]["queue"].get<std::string>() +
                        R"(","batches":[{"batch":1,"picked":[]}]})");
  ASSERT_EQ(declined.exit_code, 0) << declined.err;
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_NE(Read("proposals.rejected.jsonl").find("\"p-1\""), std::string::npos);
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The SessionEnd reminder names a command; run exactly as printed (in a
// terminal: tmux) it reviews the queue with the payload's session id.
TEST_F(ReviewAgentTest, SessionEndReminderCommandRunsAsPrinted) {
  using namespace std::chrono_literals;
  if (!stdfs::exists("/usr/bin/tmux")) {
    if (std::getenv("CI") != nullptr) FAIL() << "tmux is missing in CI";
    GTEST_SKIP() << "tmux is not installed";
  }
  QueueSix();
  const std::string checkout = t_ / "it's my repo $HOME";
  t_.Write("it's my repo $HOME/.git/config",
           "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git\n");
  Json payload = {{"session_id", "sess 'forty-two'"},
                  {"cwd", checkout},
                  {"hook_event_name", "SessionEnd"},
                  {"reason", "exit"}};
  auto hook = Lore({"hook", "session-end"}, Opts(payload.dump()));
  ASSERT_EQ(hook.exit_code, 0) << hook.err;
  const std::string message = Json::parse(hook.out)["systemMessage"].get<std::string>();
  const size_t at = message.find("run: ");
  ASSERT_NE(at, std::string::npos) << message;
  const std::string command = message.substr(at + 5);
  EXPECT_EQ(command, "lore review " + Quote(checkout) + " --session " + Quote("sess 'forty-two'"));

  const std::string socket = "lore-agent-" + std::to_string(::getpid());
  auto tmux = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"/usr/bin/tmux", "-L", socket});
    RunOptions o;
    o.env["TMUX"] = std::nullopt;
    return lore::testing::Run(args, o);
  };
  const std::string bin = stdfs::path(LoreBinary()).parent_path().string();
  const std::string script = "export LORE_HOME=" + Quote(t_ / "stores") +
                             " HOME=" + Quote(t_ / "home") + " PATH=" + Quote(bin) +
                             ":\"$PATH\"; " + command + "; echo $? > " + Quote(t_ / "exit.tmp") +
                             "; mv " + Quote(t_ / "exit.tmp") + " " + Quote(t_ / "exit");
  ASSERT_EQ(
      tmux({"new-session", "-d", "-x", "160", "-y", "50", "-s", "r", "sh -c " + Quote(script)})
          .exit_code,
      0);
  bool shown = false;
  for (int i = 0; i < 200 && !shown; ++i) {
    shown = tmux({"capture-pane", "-p", "-t", "r"}).out.find("Batch 1 of 2") != std::string::npos;
    if (!shown) std::this_thread::sleep_for(25ms);
  }
  EXPECT_TRUE(shown) << tmux({"capture-pane", "-p", "-t", "r"}).out;
  tmux({"send-keys", "-t", "r", "A"});  // approve everything
  for (int i = 0; i < 400 && !stdfs::exists(t_ / "exit"); ++i) std::this_thread::sleep_for(25ms);
  tmux({"kill-server"});
  ASSERT_TRUE(stdfs::exists(t_ / "exit"));
  EXPECT_EQ(t_.Read("exit"), "0\n");
  EXPECT_EQ(Count(Read("learnings.jsonl"), R"("source_session":"sess 'forty-two'")"), 6u);
  EXPECT_EQ(Read("proposals.jsonl"), "");
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
