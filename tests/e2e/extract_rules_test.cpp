// Black-box tests of `lore extract` with the rules engine: the fixtures of
// tests/fixtures/transcripts/, the cursor (twice, appended lines, a replaced
// transcript, kill -9 between the steps), and hostile lines (a 50 MB line, an
// incomplete last line, invalid UTF-8, non-JSON, unknown types).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <regex>

#include "support/extract_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;

class ExtractRulesTest : public ExtractFixture {};

std::string Dump(const Json& j) { return j.dump(); }

TEST_F(ExtractRulesTest, PlanFixtureGivesEachListAndSkipsHarnessText) {
  WriteTranscript(Fixture("plan.jsonl"));
  Json line = Line(Extract());
  EXPECT_EQ(line["status"], "staged");
  EXPECT_EQ(line["session_id"], "9a7e4410-22c3-4f0a-8d1e-77b3c2e9f002");  // from the lines
  EXPECT_EQ(line["range"], Json::array({1, 32}));
  EXPECT_EQ(line["counts"]["lines"], 32);
  EXPECT_EQ(line["counts"]["unknown"], 1);
  EXPECT_EQ(line["counts"]["malformed"], 0);
  EXPECT_GE(line["counts"]["sidechain"], 3);
  ASSERT_EQ(Staged().size(), 1u);
  Json e = Entry(line["staged_id"]);
  EXPECT_EQ(e["source"]["session_id"], line["session_id"]);
  EXPECT_EQ(e["source"]["range"], Json::array({1, 32}));
  std::string text = Dump(e);
  EXPECT_NE(text.find("SQLite table"), std::string::npos) << text;         // the person's choice
  EXPECT_NE(text.find("Search result cache"), std::string::npos) << text;  // the approved plan
  EXPECT_NE(text.find("'sqlite3_stmt' was not declared"), std::string::npos) << text;
  EXPECT_EQ(text.find("This session is being continued"),
            std::string::npos);  // the compaction summary
  EXPECT_EQ(text.find("Request interrupted"), std::string::npos);
  EXPECT_EQ(text.find("subagent"), std::string::npos);
  EXPECT_EQ(text.find("grep -rn"), std::string::npos);  // a sidechain's command
}

TEST_F(ExtractRulesTest, ToolResultsHoldingFileContentsStayOut) {
  WriteTranscript(Fixture("bugfix.jsonl"));
  Json line = Line(Extract());
  std::string text = Dump(Entry(line["staged_id"]));
  EXPECT_EQ(text.find("line 100 of the tokenizer"), std::string::npos);
  EXPECT_EQ(text.find("/clear"), std::string::npos);  // a command wrapper
  EXPECT_EQ(text.find("Caveat"), std::string::npos);  // isMeta
  EXPECT_NE(text.find("ctest --test-dir build -R Tokenizer --output-on-failure"),
            std::string::npos);
  EXPECT_NE(text.find("TokenizerTest.QuotedStrings .....***Failed"), std::string::npos) << text;
  EXPECT_NE(text.find("\"intent\":\"Also add a regression test"), std::string::npos) << text;
  EXPECT_NE(text.find("Why did the tokenizer drop the trailing quote?"), std::string::npos);
}

TEST_F(ExtractRulesTest, TwiceStagesNothingNewAppendedLinesOnlyThem) {
  WriteTranscript(Fixture("review.jsonl"));
  Json first = Line(Extract());
  EXPECT_EQ(first["range"], Json::array({1, 21}));
  Json again = Line(Extract());
  EXPECT_EQ(again["status"], "nothing-new");
  EXPECT_TRUE(again["staged_id"].is_null());
  EXPECT_EQ(Staged().size(), 1u);
  AppendTranscript(UserLine("Rename leewayMs to leewayMillis everywhere.",
                            "c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003") +
                   UserLine("And update the changelog.", "c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003"));
  Json more = Line(Extract());
  EXPECT_EQ(more["status"], "staged");
  EXPECT_EQ(more["range"], Json::array({22, 23}));
  Json e = Entry(more["staged_id"]);
  ASSERT_EQ(e["requests"].size(), 2u) << e.dump();
  EXPECT_EQ(e["requests"][0]["summary"], "Rename leewayMs to leewayMillis everywhere.");
  EXPECT_EQ(Staged().size(), 2u);
}

// A session log that lost its tail after the cursor passed it (a crash, a
// cut by hand, `lore check --repair` moving a torn tail into quarantine/) is
// logged again by the next extract of the same transcript, byte for byte,
// without a line twice and without staging the range again.
TEST_F(ExtractRulesTest, ALostSessionLogTailIsLoggedAgainByteForByte) {
  WriteTranscript(Fixture("review.jsonl"));
  Json first = Line(Extract());
  ASSERT_EQ(first["status"], "staged");
  const std::string log = "sessions/c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003.jsonl";
  const std::string whole = Read(log);
  ASSERT_GT(whole.size(), 100u);
  // The tail cut in the middle of the span line: the rest is moved aside.
  std::filesystem::resize_file(Path(log), whole.size() - 40);
  Json again = Line(Extract());
  EXPECT_EQ(again["status"], "nothing-new");
  EXPECT_EQ(again["log_restored"], Json::array({1, 21})) << again.dump();
  EXPECT_EQ(Read(log), whole);
  EXPECT_EQ(Read("quarantine/" + log + ".torn-at-0"), whole.substr(0, whole.size() - 40));
  EXPECT_EQ(Staged().size(), 1u);
  // Nothing is lost: the next extract leaves the log as it is.
  Json third = Line(Extract());
  EXPECT_FALSE(third.contains("log_restored")) << third.dump();
  EXPECT_EQ(Read(log), whole);

  // A second run's batch, torn, then quarantined by `lore check --repair`.
  AppendTranscript(UserLine("Rename leewayMs to leewayMillis everywhere.",
                            "c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003"));
  ASSERT_EQ(Line(Extract())["status"], "staged");
  const std::string both = Read(log);
  ASSERT_GT(both.size(), whole.size());
  std::filesystem::resize_file(Path(log), both.size() - 10);
  auto repaired = Lore({"check", kRepo, "--repair"}, Opts());
  EXPECT_EQ(repaired.exit_code, 0) << repaired.err;
  EXPECT_EQ(Read(log), whole);
  Json restored = Line(Extract());
  EXPECT_EQ(restored["status"], "nothing-new");
  EXPECT_EQ(restored["log_restored"], Json::array({22, 22})) << restored.dump();
  EXPECT_EQ(Read(log), both);
  EXPECT_EQ(Staged().size(), 2u);

  // Whole lines past the last span (a batch cut at a line end) go aside too.
  const size_t last_span = both.rfind("{\"turn\":\"span\"");
  ASSERT_GT(last_span, whole.size());  // the second batch logged an event before its span
  std::filesystem::resize_file(Path(log), last_span);
  Json lines_only = Line(Extract());
  EXPECT_EQ(lines_only["log_restored"], Json::array({22, 22})) << lines_only.dump();
  EXPECT_EQ(Read(log), both);
}

TEST_F(ExtractRulesTest, IncompleteLastLineWaitsForItsNewline) {
  std::string done = UserLine("First request: add logging.");
  std::string half = UserLine("Second request: add metrics.");
  WriteTranscript(done + half.substr(0, half.size() / 2));
  Json a = Line(Extract());
  EXPECT_EQ(a["range"], Json::array({1, 1}));
  AppendTranscript(half.substr(half.size() / 2));
  Json b = Line(Extract());
  EXPECT_EQ(b["range"], Json::array({2, 2}));
  EXPECT_EQ(Entry(b["staged_id"])["requests"][0]["summary"], "Second request: add metrics.");
}

TEST_F(ExtractRulesTest, BadLinesAreSkippedAndCounted) {
  WriteTranscript(UserLine("Keep this request.") + "this is not JSON\n" +
                  "{\"type\":\"user\",\"message\":{\"content\":\"bad \xff\xfe bytes\"}}\n" +
                  "[1,2,3]\n" + "{\"type\":\"hologram\",\"x\":1}\n" + "\n" +
                  UserLine("And this one."));
  Json line = Line(Extract({"--session", "flagged"}));
  EXPECT_EQ(line["session_id"], "flagged");
  EXPECT_EQ(line["counts"]["malformed"], 3);
  EXPECT_EQ(line["counts"]["unknown"], 1);
  EXPECT_EQ(line["range"], Json::array({1, 7}));
  EXPECT_EQ(Entry(line["staged_id"])["requests"].size(), 2u);
}

TEST_F(ExtractRulesTest, FiftyMegabyteLineIsSkippedInBoundedMemory) {
  {  // written in pieces: this process stays small, so that the forked child starts small
    WriteTranscript(UserLine("Read the big log."));
    std::ofstream out(Transcript(), std::ios::binary | std::ios::app);
    out << R"({"type":"user","sessionId":"sess-1","message":{"role":"user","content":[)"
        << R"({"type":"tool_result","tool_use_id":"toolu_1","content":")";
    const std::string piece(1 << 20, 'x');
    for (int i = 0; i < 50; ++i) out << piece;
    out << "\"}]}}\n" << UserLine("Then summarise it.");
  }
  Json line = Line(Extract());
  EXPECT_EQ(line["counts"]["oversized"], 1);
  EXPECT_EQ(line["range"], Json::array({1, 3}));
  EXPECT_EQ(Entry(line["staged_id"])["requests"].size(), 2u);
// ASan's shadow and quarantine make RSS meaningless (gcc says __SANITIZE_ADDRESS__, clang not:
// LORE_SANITIZER_BUILD is the build's own word for it).
#if !defined(__SANITIZE_ADDRESS__) && !defined(LORE_SANITIZER_BUILD)
  rusage ru{};
  ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &ru), 0);
  EXPECT_LT(ru.ru_maxrss, 40 * 1024) << "peak RSS of a child in KiB";  // 50 MB were never held
#endif
}

TEST_F(ExtractRulesTest, DryRunPrintsTheEntryAndWritesNothing) {
  WriteTranscript(Fixture("chores.jsonl"));
  Json line = Line(Extract({"--dry-run"}));
  EXPECT_EQ(line["status"], "dry-run");
  EXPECT_EQ(line["entry"]["source"]["range"], Json::array({1, 23}));
  EXPECT_FALSE(line["entry"]["decisions"].empty());
  EXPECT_TRUE(Staged().empty());
  EXPECT_FALSE(Exists("extract"));
  EXPECT_EQ(Line(Extract())["status"], "staged");  // the real run still sees every line
}

TEST_F(ExtractRulesTest, ReplacedTranscriptRestartsAndSaysSo) {
  WriteTranscript(UserLine("One.") + UserLine("Two.") + UserLine("Three."));
  Line(Extract());
  std::filesystem::remove(Transcript());
  WriteTranscript(UserLine("A new file."));  // shorter, another inode
  Json line = Line(Extract());
  EXPECT_EQ(line["status"], "staged");
  EXPECT_EQ(line["range"], Json::array({1, 1}));
  EXPECT_TRUE(line.contains("restarted")) << line.dump();
}

TEST_F(ExtractRulesTest, TruncatedInPlaceRestarts) {
  WriteTranscript(UserLine("One.") + UserLine("Two."));
  Line(Extract());
  std::filesystem::resize_file(Transcript(), 0);
  AppendTranscript(UserLine("Fresh."));
  Json line = Line(Extract());
  EXPECT_EQ(line["range"], Json::array({1, 1}));
  EXPECT_NE(line["restarted"].get<std::string>().find("shorter"), std::string::npos) << line.dump();
}

TEST_F(ExtractRulesTest, SessionIdFallsBackToTheFileStem) {
  WriteTranscript("{\"type\":\"user\",\"message\":{\"content\":\"no session id here\"}}\n");
  EXPECT_EQ(Line(Extract())["session_id"], "session");
}

TEST_F(ExtractRulesTest, MissingTranscriptIsOneLineAndExit1) {
  auto r = Lore({"extract", kRepo, "--transcript", t_ / "absent.jsonl"}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("absent.jsonl"), std::string::npos);
}

// kill -9 at each step: the rerun stages every line exactly once.
class ExtractCrashTest : public ExtractFixture,
                         public ::testing::WithParamInterface<const char*> {};

TEST_P(ExtractCrashTest, EveryLineStagedOnceAfterAKill) {
  WriteTranscript(UserLine("Add the first request to the queue.") +
                  UserLine("Add the second request to the queue."));
  auto killed =
      Extract({}, /*test_build=*/true, {{"LORE_TEST_HOOK", std::string(GetParam()) + ":crash"}});
  EXPECT_EQ(killed.exit_code, 128 + 9) << killed.err;
  Json rerun = Line(Extract());
  AppendTranscript(UserLine("Add the third request to the queue."));
  Json last = Line(Extract());
  EXPECT_EQ(last["range"], Json::array({3, 3}));
  auto ranges = Ranges();
  ASSERT_EQ(ranges.size(), 2u) << rerun.dump();
  EXPECT_EQ(ranges[0], (std::pair<int64_t, int64_t>{1, 2}));
  EXPECT_EQ(ranges[1], (std::pair<int64_t, int64_t>{3, 3}));
  // Killed before its cursor moved: the tentative entry is dropped and the
  // lines read again; after: the entry the cursor names is published.
  EXPECT_EQ(rerun["recovered"],
            std::string(GetParam()) == "extract-after-stage" ? "published" : "retried");
}

INSTANTIATE_TEST_SUITE_P(Points, ExtractCrashTest,
                         ::testing::Values("extract-after-pending", "extract-after-stage"));

// Two kills in a row: the first after its cursor named the entry, the second
// (which published that entry) after writing a tentative entry of its own but
// before its cursor moved. The next run finds the first entry's id in the
// cursor: it must not publish the second run's entry under that id (found by
// the session soak: lines 169-170 lost, 171 staged twice).
TEST_F(ExtractFixture, ALaterTentativeEntryIsNeverPublishedUnderAnEarlierId) {
  WriteTranscript(UserLine("Add the first request to the queue."));
  auto first = Extract({}, /*test_build=*/true, {{"LORE_TEST_HOOK", "extract-after-stage:crash"}});
  ASSERT_EQ(first.exit_code, 128 + 9) << first.err;
  AppendTranscript(UserLine("Add the second request to the queue."));
  auto second =
      Extract({}, /*test_build=*/true, {{"LORE_TEST_HOOK", "extract-after-pending:crash"}});
  ASSERT_EQ(second.exit_code, 128 + 9) << second.err;
  Json third = Line(Extract());
  EXPECT_EQ(third["recovered"], "staged");
  EXPECT_EQ(third["range"], Json::array({2, 2}));
  auto ranges = Ranges();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0], (std::pair<int64_t, int64_t>{1, 1}));
  EXPECT_EQ(ranges[1], (std::pair<int64_t, int64_t>{2, 2}));
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
