// Black-box tests of propose, proposals and review (docs/proposals.md).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;
constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

std::string HostName() {
  char buf[256] = {0};
  ::gethostname(buf, sizeof buf - 1);
  return buf;
}

class ProposalsTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    RunOptions o = IsolatedOptions(t_.path(), "stores", std::move(input));
    o.env["LORE_WAVE"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = std::nullopt;
    return o;
  }
  std::string Store(const std::string& rel = "") const {
    return t_ / ("stores/" + std::string(kKey) + (rel.empty() ? "" : "/" + rel));
  }
  std::string Read(const std::string& rel) const {
    return t_.Read("stores/" + std::string(kKey) + "/" + rel);
  }
  void Write(const std::string& rel, const std::string& text) const {
    t_.Write("stores/" + std::string(kKey) + "/" + rel, text);
  }
  int64_t Lines(const std::string& rel) const {
    std::string s = Read(rel);
    return std::count(s.begin(), s.end(), '\n');
  }
  RunResult Propose(std::vector<std::string> extra, const std::string& conf = "0.8",
                    const std::string& wave = "W1") {
    std::vector<std::string> args{"propose",      kRepo,          "--type",
                                  "anti-pattern", "--subject",    "subject " + std::to_string(n_++),
                                  "--insight",    "insight",      "--evidence",
                                  "evidence",     "--confidence", conf};
    if (!wave.empty()) args.insert(args.end(), {"--wave", wave});
    args.insert(args.end(), extra.begin(), extra.end());
    return Lore(args, Opts());
  }
  std::string Id(const RunResult& r) { return Json::parse(r.out)["id"].get<std::string>(); }
  RunResult Review(std::vector<std::string> extra, RunOptions o) {
    std::vector<std::string> args{"review", kRepo, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Lore(args, o);
  }
  RunResult Review(std::vector<std::string> extra) { return Review(std::move(extra), Opts()); }

  TempDir t_;
  int n_ = 0;
};

TEST_F(ProposalsTest, QueuesOneCompactLineWithTheKeysInOrder) {
  auto r =
      Propose({"--file-paths", "src/a.cc, src/b.cc", "--file-paths", "src/a.cc", "--agent", "bot"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json out = Json::parse(r.out);
  EXPECT_EQ(out["status"], "queued");
  EXPECT_EQ(out["position"], "1/5");
  EXPECT_EQ(out["wave"], "W1");
  std::string line = Read("proposals.jsonl");
  ASSERT_EQ(std::count(line.begin(), line.end(), '\n'), 1);
  Json rec = Json::parse(line);
  std::vector<std::string> keys;
  for (auto& [k, v] : rec.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"id", "created_at", "wave_id", "type", "subject",
                                            "insight", "evidence", "confidence", "schema_version",
                                            "proposed_by_agent", "file_paths"}));
  EXPECT_EQ(rec["id"], out["id"]);
  EXPECT_EQ(rec["file_paths"], Json::array({"src/a.cc", "src/b.cc"}));
  EXPECT_EQ(line.find(' ', line.find("\"schema_version\"")), std::string::npos)
      << "compact: " << line;
  EXPECT_EQ(rec["created_at"].get<std::string>().size(), 24u);  // 2026-01-01T00:00:00.000Z
  struct stat st;
  ASSERT_EQ(::stat(Store("proposals.jsonl").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// The same proposal again (type, subject and insight; case and white space
// aside) is reported as already queued: exit 0, nothing appended or counted.
TEST_F(ProposalsTest, TheSameProposalAgainIsAlreadyQueued) {
  auto propose = [&](const std::string& subject, const std::string& insight) {
    return Lore({"propose", kRepo, "--type", "anti-pattern", "--subject", subject, "--insight",
                 insight, "--evidence", "other evidence", "--confidence", "0.9", "--wave", "W1"},
                Opts());
  };
  auto first = propose("Retry the flaky test", "the fixture races the server");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const std::string queue = Read("proposals.jsonl");
  auto again = propose("  retry the FLAKY test.", "The fixture  races the server");
  EXPECT_EQ(again.exit_code, 0) << again.out;
  Json j = Json::parse(again.out);
  EXPECT_EQ(j["status"], "already-queued");
  EXPECT_EQ(j["id"], Id(first));
  EXPECT_EQ(Read("proposals.jsonl"), queue);
  EXPECT_EQ(Json::parse(Read("proposals-summary-W1.json"))["queued"], 1);
  // Another insight is another proposal.
  auto other = propose("Retry the flaky test", "the fixture leaks a port");
  EXPECT_EQ(Json::parse(other.out)["status"], "queued") << other.out;
  EXPECT_EQ(Lines("proposals.jsonl"), 2);
}

TEST_F(ProposalsTest, QuotaOfFivePerWave) {
  std::vector<int> codes;
  for (int i = 0; i < 7; ++i) codes.push_back(Propose({}).exit_code);
  EXPECT_EQ(codes, (std::vector<int>{0, 0, 0, 0, 0, 1, 1}));
  auto last = Propose({});
  EXPECT_EQ(last.out,
            "{\"status\":\"quota-exceeded\",\"quota\":5,\"dropped\":3,\"wave\":\"W1\"}\n");
  EXPECT_EQ(Lines("proposals.jsonl"), 5);
  EXPECT_EQ(
      Read("proposals-summary-W1.json"),
      "{\n  \"queued\": 5,\n  \"dropped\": 3,\n  \"below_floor\": 0,\n  \"fs_error\": 0\n}\n");
  auto list = Lore({"proposals", kRepo, "--json"}, Opts());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(Json::parse(list.out)["stats"].dump(),
            R"({"queued":5,"dropped":3,"below_floor":0,"fs_error":0,"parse_errors":0})");
}

TEST_F(ProposalsTest, EightProposersAtOnceWithQuotaFive) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  std::vector<int> codes(8, -1);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      codes[i] =
          Lore({"propose", kRepo, "--type", "convention", "--subject", "s" + std::to_string(i),
                "--insight", "i", "--evidence", "e", "--confidence", "0.9", "--wave", "W4"},
               Opts())
              .exit_code;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(std::count(codes.begin(), codes.end(), 0), 5);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), 1), 3);
  EXPECT_EQ(Lines("proposals.jsonl"), 5);
  EXPECT_EQ(
      Read("proposals-summary-W4.json"),
      "{\n  \"queued\": 5,\n  \"dropped\": 3,\n  \"below_floor\": 0,\n  \"fs_error\": 0\n}\n");
  EXPECT_FALSE(stdfs::exists(Store("proposals-write.lock")));
}

TEST_F(ProposalsTest, ConfidenceFloorAndBoundaries) {
  EXPECT_EQ(Propose({}, "0.5").exit_code, 0);
  auto low = Propose({}, "0.499");
  EXPECT_EQ(low.exit_code, 2);
  EXPECT_EQ(low.out, "{\"status\":\"rejected-low-confidence\",\"floor\":0.5,\"provided\":0.499}\n");
  for (const char* bad : {"-0.0001", "1.0001", "NaN", "high", ""}) {
    auto r = Propose({}, bad);
    EXPECT_EQ(r.exit_code, 4) << bad;
    Json out = Json::parse(r.out);
    EXPECT_EQ(out["status"], "error");
    EXPECT_EQ(out["validation"][0].get<std::string>().rfind(
                  "confidence must be a finite number in [0, 1]", 0),
              0u)
        << r.out;
  }
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
  EXPECT_EQ(Json::parse(Read("proposals-summary-W1.json"))["below_floor"], 1);
}

TEST_F(ProposalsTest, InvalidInputIsExitFourWithEveryProblem) {
  auto r = Lore({"propose", kRepo, "--type", "nope", "--subject", std::string(101, 's'),
                 "--insight", "a\nb", "--confidence", "2", "--file-paths", "**", "--file-paths",
                 "src/[ab],/abs,../up", "--wave", "W1"},
                Opts());
  EXPECT_EQ(r.exit_code, 4);
  Json v = Json::parse(r.out)["validation"];
  EXPECT_EQ(v.size(), 9u) << r.out;
  EXPECT_EQ(v[0], "--evidence is required");
  auto unknown = Lore({"propose", kRepo, "--colour", "red"}, Opts());
  EXPECT_EQ(unknown.exit_code, 4);
  EXPECT_EQ(Json::parse(unknown.out)["status"], "error");
  auto empty_paths = Propose({"--file-paths", " , "});
  EXPECT_EQ(empty_paths.exit_code, 4);
  EXPECT_FALSE(stdfs::exists(Store("proposals.jsonl")));
}

TEST_F(ProposalsTest, WrongContextIsExitThree) {
  auto none = Propose({}, "0.9", "");
  EXPECT_EQ(none.exit_code, 3);
  EXPECT_EQ(Json::parse(none.out)["status"], "rejected-wrong-context");
  RunOptions o = Opts();
  o.env["LORE_WAVE"] = "W7";
  auto from_env = Lore({"propose", kRepo, "--type", "convention", "--subject", "s", "--insight",
                        "i", "--evidence", "e", "--confidence", "0.9"},
                       o);
  EXPECT_EQ(from_env.exit_code, 0) << from_env.out;
  EXPECT_EQ(Json::parse(from_env.out)["wave"], "W7");
  Write("config.toml", "[memory.proposals]\nenabled = false\n");
  auto off = Propose({});
  EXPECT_EQ(off.exit_code, 3);
  EXPECT_NE(off.out.find("memory.proposals.enabled = false"), std::string::npos);
  auto dry = Propose({"--dry-run"}, "0.9", "");
  EXPECT_EQ(dry.exit_code, 0);
  EXPECT_EQ(Json::parse(dry.out)["status"], "dry-run-ok");
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
}

TEST_F(ProposalsTest, ConfigDecidesQuotaAndFloorAndBadConfigIsNamed) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  Write("config.toml",
        "# lore settings\n[memory.proposals]\nquota_per_wave = 1\nconfidence_floor = 0.9\n");
  EXPECT_EQ(Propose({}, "0.85").exit_code, 2);
  EXPECT_EQ(Propose({}, "0.95").exit_code, 0);
  EXPECT_EQ(Propose({}, "0.95").exit_code, 1);
  Write("config.toml", "[memory.proposals]\nquota_per_wave = \n");
  auto bad = Propose({});
  EXPECT_EQ(bad.exit_code, 4);
  EXPECT_NE(bad.err.find(Store("config.toml") + ":2; "), std::string::npos) << bad.err;
}

TEST_F(ProposalsTest, StaleLockReclaimedLiveAndForeignLocksLeftAlone) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  pid_t dead = ::fork();
  if (dead == 0) _exit(0);
  ::waitpid(dead, nullptr, 0);
  Write("proposals-write.lock", "{\"pid\":" + std::to_string(dead) + ",\"host\":\"" + HostName() +
                                    "\",\"acquiredAt\":\"x\"}");
  auto stale = Propose({});
  EXPECT_EQ(stale.exit_code, 0) << stale.out << stale.err;
  EXPECT_NE(stale.err.find("reclaimed a stale proposals write lock"), std::string::npos)
      << stale.err;
  EXPECT_FALSE(stdfs::exists(Store("proposals-write.lock")));

  for (const std::string& body : {"{\"pid\":" + std::to_string(::getpid()) + ",\"host\":\"" +
                                      HostName() + "\",\"acquiredAt\":\"x\"}",
                                  "{\"pid\":" + std::to_string(dead) +
                                      ",\"host\":\"another-host.invalid\",\"acquiredAt\":\"x\"}"}) {
    Write("proposals-write.lock", body);
    const auto start = std::chrono::steady_clock::now();
    auto r = Propose({});
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(r.exit_code, 4) << r.out;
    EXPECT_EQ(Json::parse(r.out)["status"], "error");
    EXPECT_NE(r.err.find(Store("proposals-write.lock")), std::string::npos) << r.err;
    EXPECT_GE(took, std::chrono::milliseconds(900));
    EXPECT_LT(took, std::chrono::seconds(3));
    EXPECT_EQ(Read("proposals-write.lock"), body);
  }
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
  EXPECT_EQ(Json::parse(Read("proposals-summary-W1.json"))["fs_error"], 2);
}

TEST_F(ProposalsTest, ApproveThreeOfFive) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(Id(Propose({})));
  const std::string before = Read("proposals.jsonl");
  auto r = Review(
      {"--session", "sess-42", "--approve", ids[0], ids[2].substr(0, 8), "--approve", ids[4]});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  Json res = Json::parse(r.out);
  EXPECT_EQ(res["written"], 3);
  EXPECT_EQ(res["expected"], 3);
  EXPECT_EQ(res["cleared"], true);
  EXPECT_EQ(res["summariesCleared"], 1);
  EXPECT_EQ(res["skippedReason"], nullptr);
  EXPECT_EQ(Lines("learnings.jsonl"), 3);
  EXPECT_EQ(Lines("proposals.rejected.jsonl"), 2);
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_EQ(Read("proposals-archive.jsonl"), before);
  EXPECT_FALSE(stdfs::exists(Store("proposals-summary-W1.json")));
  Json learning =
      Json::parse(Read("learnings.jsonl").substr(0, Read("learnings.jsonl").find('\n')));
  EXPECT_EQ(learning["id"], ids[0]);
  EXPECT_EQ(learning["source_session"], "sess-42");
  EXPECT_EQ(learning["_provenance"], "agent-proposed@W1");
  Json rejected = Json::parse(
      Read("proposals.rejected.jsonl").substr(0, Read("proposals.rejected.jsonl").find('\n')));
  EXPECT_EQ(rejected["id"], ids[1]);
  EXPECT_EQ(rejected["_rejected_reason"], "user-declined");
  // A second clear does not grow the archive.
  auto again = Review({"--session", "sess-42", "--decline-all"});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(Read("proposals-archive.jsonl"), before);
}

TEST_F(ProposalsTest, WriteErrorOnOneApprovedRecordClearsNothing) {
  Propose({});
  Propose({});
  // A line whose confidence is a string cannot be promoted.
  Write(
      "proposals.jsonl",
      Read("proposals.jsonl") +
          R"({"id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","created_at":"2099-01-01T00:00:00.000Z","wave_id":"W1","type":"anti-pattern","subject":"s","insight":"i","evidence":"e","confidence":"high","schema_version":1})"
          "\n");
  const std::string before = Read("proposals.jsonl");
  auto r = Review({"--session", "s", "--approve-all"});
  EXPECT_EQ(r.exit_code, 1);
  Json res = Json::parse(r.out);
  EXPECT_EQ(res["cleared"], false);
  EXPECT_EQ(res["skippedReason"], "write-errors");
  EXPECT_EQ(res["written"], 2);
  EXPECT_EQ(res["expected"], 3);
  EXPECT_EQ(Read("proposals.jsonl"), before);
  EXPECT_FALSE(stdfs::exists(Store("proposals-archive.jsonl")));
  EXPECT_TRUE(stdfs::exists(Store("proposals-summary-W1.json")));
}

TEST_F(ProposalsTest, ABlankSessionIdIsAnErrorAndNothingIsWritten) {
  Propose({});
  const std::string before = Read("proposals.jsonl");
  auto r = Review({"--session", " ", "--approve-all"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--session is blank"), std::string::npos) << r.err;
  EXPECT_EQ(Read("proposals.jsonl"), before);
  EXPECT_FALSE(stdfs::exists(Store("learnings.jsonl")));
  EXPECT_FALSE(stdfs::exists(Store("proposals.rejected.jsonl")));
}

// The person sees the pending count where they look: lore status, as text and JSON.
TEST_F(ProposalsTest, StatusShowsThePendingCount) {
  auto none = Lore({"status", kRepo, "--json"}, Opts());
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(Json::parse(none.out)["pending_proposals"], 0);
  EXPECT_EQ(Lore({"status", kRepo}, Opts()).out.find("proposals:"), std::string::npos);
  Propose({});
  Propose({});
  auto text = Lore({"status", kRepo}, Opts());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(
      text.out.rfind("proposals: 2 await your review: lore review " + std::string(kRepo) + "\n", 0),
      0u)
      << text.out;
  EXPECT_EQ(Json::parse(Lore({"status", kRepo, "--json"}, Opts()).out)["pending_proposals"], 2);
}

// A person in a terminal has no session id: the review is recorded as manual-review.
TEST_F(ProposalsTest, WithoutASessionIdTheReviewIsRecordedAsManualReview) {
  Propose({});
  auto r = Review({"--approve-all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json learning = Json::parse(Read("learnings.jsonl"));
  EXPECT_EQ(learning["source_session"], "manual-review");
  EXPECT_EQ(Lines("proposals.jsonl"), 0);
}

TEST_F(ProposalsTest, NotATerminalWithoutDecisionsIsAUsageError) {
  Propose({});
  auto r = Lore({"review", kRepo, "--session", "s"}, Opts());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("standard input is not a terminal"), std::string::npos) << r.err;
  auto unknown = Review({"--session", "s", "--approve", "ffffffff-0000"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no queued proposal has id ffffffff-0000"), std::string::npos);
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
}

TEST_F(ProposalsTest, KillNineInTheMiddleOfPromotionLosesNothing) {
  std::set<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.insert(Id(Propose({})));
  const std::string before = Read("proposals.jsonl");
  RunOptions crash = Opts();
  crash.env["LORE_TEST_HOOK"] = "after-learning-2:crash";  // obeyed by the test build only
  auto killed = LoreTest({"review", kRepo, "--json", "--session", "s1", "--approve-all"}, crash);
  EXPECT_EQ(killed.exit_code, 128 + SIGKILL);
  EXPECT_EQ(Lines("learnings.jsonl"), 2);
  EXPECT_EQ(Read("proposals.jsonl"), before);
  EXPECT_TRUE(stdfs::exists(Store("proposals-write.lock")));  // left by the dead process
  auto second = Review({"--session", "s1", "--approve-all"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  Json res = Json::parse(second.out);
  EXPECT_EQ(res["written"], 3);
  EXPECT_EQ(res["recovered"], 2);
  std::set<std::string> learned;
  std::string text = Read("learnings.jsonl");
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    learned.insert(Json::parse(text.substr(pos, nl - pos))["id"].get<std::string>());
    pos = nl + 1;
  }
  EXPECT_EQ(Lines("learnings.jsonl"), 5);
  EXPECT_EQ(learned, ids);
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_EQ(Read("proposals-archive.jsonl"), before);
}

TEST_F(ProposalsTest, PlanDecidesOnlyWhatItNames) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(Id(Propose({})));
  t_.Write("plan.json", "{\"approve\":[\"" + ids[0] + "\"],\"decline\":[\"" + ids[1] +
                            "\"],\"reason\":\"manual-skip\"}");
  auto r = Review({"--session", "s", "--plan", t_ / "plan.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
  EXPECT_NE(Read("proposals.jsonl").find(ids[2]), std::string::npos);
  EXPECT_NE(Read("proposals.rejected.jsonl").find("\"_rejected_reason\":\"manual-skip\""),
            std::string::npos);
  EXPECT_TRUE(stdfs::exists(Store("proposals-summary-W1.json")));  // W1 still has a queued proposal
}

TEST_F(ProposalsTest, SymlinkedQueueOrArchiveRefused) {
  Propose({});
  Write("real.jsonl", Read("proposals.jsonl"));
  stdfs::remove(Store("proposals.jsonl"));
  stdfs::create_symlink(Store("real.jsonl"), Store("proposals.jsonl"));
  auto p = Propose({});
  EXPECT_EQ(p.exit_code, 4);
  EXPECT_NE(p.err.find(Store("proposals.jsonl")), std::string::npos) << p.err;
  auto r = Review({"--session", "s", "--approve-all"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
  stdfs::remove(Store("proposals.jsonl"));
  stdfs::rename(Store("real.jsonl"), Store("proposals.jsonl"));
  Write("elsewhere.jsonl", "");
  stdfs::create_symlink(Store("elsewhere.jsonl"), Store("proposals-archive.jsonl"));
  auto a = Review({"--session", "s", "--approve-all"});
  EXPECT_EQ(a.exit_code, 1);
  EXPECT_NE(a.err.find(Store("proposals-archive.jsonl")), std::string::npos) << a.err;
  EXPECT_FALSE(stdfs::exists(Store("learnings.jsonl")));
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
}

TEST_F(ProposalsTest, ReadsLinesWrittenByTheOriginalTool) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  // As JSON.stringify writes a record of the Node.js tool (confidence 1, an agent).
  const std::string node =
      R"({"id":"6f1c2f0e-4b7a-4d2e-9a51-0c7d1e2f3a4b","created_at":"2026-05-23T12:49:00.000Z","wave_id":"W2","type":"fragile-file","subject":"x","insight":"y","evidence":"z","confidence":1,"schema_version":1,"proposed_by_agent":"code-implementer"})";
  Write("proposals.jsonl", node + "\n");
  auto r = Review({"--session", "main-2026-05-23-1249-deep", "--approve-all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(
      Read("learnings.jsonl"),
      R"({"id":"6f1c2f0e-4b7a-4d2e-9a51-0c7d1e2f3a4b","created_at":"2026-05-23T12:49:00.000Z","wave_id":"W2","type":"fragile-file","subject":"x","insight":"y","evidence":"z","confidence":1,"schema_version":1,"source_session":"main-2026-05-23-1249-deep","scope":"local","occurrences":1,"_provenance":"agent-proposed@W2","expires_at":"2026-07-07T12:49:00.000Z","host_class":null,"anonymized":false})"
      "\n");
}

// Issue 38, finding 5: a queue line another program wrote may carry a
// terminal's codes; `lore proposals` prints none of them (a title change, a
// cleared screen, hidden text), while --json keeps them, escaped.
TEST_F(ProposalsTest, TheListingPrintsNoTerminalCodes) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  Json r = {{"id", "6f1c2f0e-4b7a-4d2e-9a51-0c7d1e2f3a4b\x1b[2J"},
            {"created_at", "2026-05-23T12:49:00.000Z\x1b]0;owned\x07"},
            {"wave_id", "W\x1b[8m2"},
            {"type", "convention"},
            {"subject", "title\x1b]0;owned\x07 change\nnext"},
            {"insight", "y"},
            {"evidence", "\x1b[8mhidden\x1b[0m\r"},
            {"confidence", 0.5},
            {"schema_version", 1}};
  Write("proposals.jsonl", r.dump() + "\n");
  auto text = Lore({"proposals", kRepo}, Opts());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find('\r'), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("1. [convent] | title change next"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("evidence: hidden \n   id 6f1c2f0e-4b7a-4d2e-9a51-0c7d1e2f3a4b  wave W2"),
            std::string::npos)
      << text.out;
  auto json = Lore({"proposals", kRepo, "--json"}, Opts());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.find('\x1b'), std::string::npos);
  EXPECT_NE(json.out.find("\\u001b[2J"), std::string::npos) << json.out;
}

TEST_F(ProposalsTest, AuditHookRedactsAndNeverFails) {
  stdfs::create_directories(t_ / "repo/.git");  // a checkout (without a remote)
  Json payload = {{"session_id", "sess-7"},
                  {"cwd", t_ / "repo"},
                  {"tool_name", "Bash"},
                  {"tool_input",
                   {{"command",
                     "lore propose . --subject=\"a b\" --insight 'c d' --evidence e "
                     "--content=\"f\" --reason g --wave W5"}}}};
  auto r = Lore({"hook", "pre-tool-use"}, Opts(payload.dump()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::string key = "tmp_" + stdfs::path(t_.path()).filename().string() + "_repo";
  std::string events = t_.Read("stores/" + key + "/events.jsonl");
  Json e = Json::parse(events);
  EXPECT_EQ(e["event"], "memory.propose_invoked");
  EXPECT_EQ(e["wave"], "W5");
  EXPECT_EQ(e["argv_truncated"],
            "lore propose . --subject=[REDACTED] --insight [REDACTED] --evidence [REDACTED] "
            "--content=[REDACTED] --reason [REDACTED] --wave W5");
  for (const std::string& input :
       {std::string("not json"), std::string("{\"tool_input\":{\"command\":\"ls\"}}"),
        std::string()}) {
    auto quiet = Lore({"hook", "pre-tool-use"}, Opts(input));
    EXPECT_EQ(quiet.exit_code, 0);
  }
  EXPECT_EQ(Lore({"hook", "no-such-event"}, Opts()).exit_code, 0);
  EXPECT_EQ(std::count(events.begin(), events.end(), '\n'), 1);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
