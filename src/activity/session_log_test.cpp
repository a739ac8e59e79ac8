#include "activity/session_log.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <fstream>
#include <set>

#include "activity/test_events.h"
#include "activity/turns.h"
#include "lore/activity/outcomes.h"
#include "support/temp_dir.h"

namespace lore::activity {
namespace {

using test::Result;
using test::Use;

TEST(LogBuilder, KeepsWordsAndTheOutcomeOfCallsNeverFileContents) {
  LogBuilder b;
  auto read = b.Add(Use(1, "toolu_0123456789abcdef", "Read", "/repo/big.txt"));
  ASSERT_TRUE(read);
  EXPECT_EQ(read->tool_id, "456789abcdef");  // enough to pair the result
  auto contents = b.Add(Result(2, "toolu_0123456789abcdef", ResultStatus::kOk, "secret-ish file"));
  ASSERT_TRUE(contents);
  EXPECT_EQ(contents->text, "");
  b.Add(Use(3, "b", "Bash", "make"));
  std::string out;
  for (int i = 1; i <= 50; ++i) out += "line " + std::to_string(i) + "\n";
  auto ok = b.Add(Result(4, "b", ResultStatus::kOk, out));
  EXPECT_EQ(ok->text, "line 1\nline 2\nline 3\n…\nline 48\nline 49\nline 50");
  b.Add(Use(5, "c", "Bash", "grep -r x ."));
  auto nomatch = b.Add(Result(6, "c", ResultStatus::kFailed, "Exit code 1", 1));
  EXPECT_EQ(nomatch->status, ResultStatus::kOk);  // a search without a match
  b.Add(Use(7, "d", "Bash", "make test"));
  auto failed = b.Add(Result(8, "d", ResultStatus::kFailed, "Exit code 2\nok 1\nFAILED: t2\n", 2));
  EXPECT_EQ(failed->text, "FAILED: t2");
  Event side = MakeEvent(EventKind::kPersonText, 9, /*sidechain=*/true, "subagent prompt");
  EXPECT_FALSE(b.Add(side));
  auto said = b.Add(MakeEvent(EventKind::kAssistantText, 10, false, std::string(9000, 'x')));
  EXPECT_LE(said->text.size(), LogCaps{}.agent + 3);
  // A file-writing call keeps the start of what it wrote; other calls nothing
  // but their input.
  Event edit = Use(11, "e", "Edit", "/repo/conf.yml");
  edit.text = std::string(1000, 'y');
  auto edited = b.Add(edit);
  EXPECT_LE(edited->text.size(), LogCaps{}.change + 3);
  EXPECT_NE(RenderEvent(*edited).find("\"change\":\"yyy"), std::string::npos);
  Event bash = Use(12, "f", "Bash", "make");
  bash.text = "not a change";
  EXPECT_EQ(b.Add(bash)->text, "");
}

TEST(LogBuilder, LinesRoundTrip) {
  Event e = Use(7, "abc", "Bash", "git push");
  e.note = "Push the branch";
  e.at = "2026-01-17T10:00:00Z";
  LogLine l;
  ASSERT_TRUE(ParseLogLine(RenderEvent(e), &l));
  EXPECT_FALSE(l.is_span);
  EXPECT_EQ(l.event.tool_name, "Bash");
  EXPECT_EQ(l.event.detail, "git push");
  EXPECT_EQ(l.event.note, "Push the branch");
  EXPECT_EQ(l.event.at, e.at);
  Event w = Use(7, "abd", "Write", "/repo/NOTES.md");
  w.text = "# Notes\nuse pnpm";
  ASSERT_TRUE(ParseLogLine(RenderEvent(w), &l));
  EXPECT_EQ(l.event.text, "# Notes\nuse pnpm");
  Event r = Result(8, "abc", ResultStatus::kRejected, "");
  r.reason = "not now";
  ASSERT_TRUE(ParseLogLine(RenderEvent(r), &l));
  EXPECT_EQ(l.event.status, ResultStatus::kRejected);
  EXPECT_EQ(l.event.reason, "not now");
  Span s{3, 9, "s1", "2026-01-17T10:00:00Z", "2026-01-17T10:05:00Z", "main", "/repo"};
  ASSERT_TRUE(ParseLogLine(RenderSpan(s), &l));
  EXPECT_TRUE(l.is_span);
  EXPECT_EQ(l.span.first, 3);
  EXPECT_EQ(l.span.last, 9);
  EXPECT_EQ(l.span.branch, "main");
  EXPECT_EQ(l.span.session_id, "s1");
  EXPECT_FALSE(ParseLogLine(R"({"turn":"other","line":1})", &l));
  EXPECT_FALSE(ParseLogLine("not json", &l));
}

// What a file-writing call wrote is kept to its start, and what it defined is
// kept from all of it: a function written past the first bytes is still found.
TEST(LogBuilder, AWriteKeepsWhatItDefined) {
  LogBuilder b;
  Event write = Use(1, "w", "Write", "/repo/src/gridcast/ingest.py");
  write.text = "\"\"\"EIA client.\"\"\"\n" + std::string(600, '#') +
               "\n\nclass EiaApiError(RuntimeError):\n    pass\n\n"
               "def get_page(client, params):\n    return client.get(params)\n";
  auto logged = b.Add(write);
  ASSERT_TRUE(logged);
  EXPECT_LE(logged->text.size(), 300u);
  EXPECT_EQ(logged->text.find("get_page"), std::string::npos);
  EXPECT_EQ(logged->defines, "EiaApiError, get_page");
  LogLine back;
  ASSERT_TRUE(ParseLogLine(RenderEvent(*logged), &back));
  EXPECT_EQ(back.event.defines, "EiaApiError, get_page");
  auto bash = b.Add(Use(2, "b", "Bash", "def_x=1 ./run.sh"));
  ASSERT_TRUE(bash);
  EXPECT_TRUE(bash->defines.empty());
}

// Found by episode_fuzz: a call id whose last 12 bytes began inside a UTF-8
// sequence was logged cut there, and read back as U+FFFD, not itself.
TEST(LogBuilder, AShortIdStartsOnACharacter) {
  LogBuilder b;
  Event use = MakeEvent(EventKind::kToolUse, 1);
  use.tool_name = "Bash";
  use.tool_id = "t1u\u2192## Usage\ngo";  // "→" is 3 bytes: the cut falls inside it
  use.detail = "ls";
  auto logged = b.Add(use);
  ASSERT_TRUE(logged);
  EXPECT_EQ(logged->tool_id, "## Usage\ngo");
  LogLine back;
  ASSERT_TRUE(ParseLogLine(RenderEvent(*logged), &back));
  EXPECT_EQ(back.event.tool_id, logged->tool_id);
}

TEST(LogBuilder, FitsTheBudget) {
  std::vector<Event> events;
  for (int i = 0; i < 40; ++i)
    events.push_back(MakeEvent(EventKind::kAssistantText, i + 1, false, std::string(3000, 'a')));
  size_t bytes = FitToBudget(events, 16 * 1024);
  EXPECT_LE(bytes, 16u * 1024);
  EXPECT_EQ(LogBudget(1000), 32u * 1024);

  // The calls' inputs and outputs give way before what was said.
  events.clear();
  for (int i = 0; i < 30; ++i) {
    Event use = MakeEvent(EventKind::kToolUse, 3 * i + 1);
    use.tool_name = "Bash";
    use.tool_id = "t" + std::to_string(i);
    use.detail = std::string(1500, 'c');
    events.push_back(use);
    Event result = MakeEvent(EventKind::kToolResult, 3 * i + 2, false, std::string(2000, 'o'));
    result.tool_id = use.tool_id;
    events.push_back(result);
  }
  events.push_back(MakeEvent(EventKind::kAssistantText, 100, false, std::string(1800, 's')));
  bytes = FitToBudget(events, 16 * 1024);
  EXPECT_LE(bytes, 16u * 1024);
  EXPECT_EQ(events.back().text.size(), 1800u) << "the closing summary kept whole";
  EXPECT_LT(events[0].detail.size(), 1500u);
  EXPECT_EQ(LogBudget(1'000'000), 250'000u);

  // What the agent said along the way gives way before what the person said
  // and the agent's last words of each turn.
  events.clear();
  int64_t n = 0;
  for (int turn = 0; turn < 4; ++turn) {
    events.push_back(MakeEvent(EventKind::kPersonText, ++n, false, std::string(900, 'p')));
    for (int i = 0; i < 5; ++i)
      events.push_back(MakeEvent(EventKind::kAssistantText, ++n, false, std::string(1500, 'w')));
    events.push_back(MakeEvent(EventKind::kAssistantText, ++n, false, std::string(1500, 'r')));
  }
  bytes = FitToBudget(events, 16 * 1024);
  EXPECT_LE(bytes, 16u * 1024);
  for (const Event& e : events) {
    if (e.text[0] == 'w') {
      EXPECT_LE(e.text.size(), 500u);
    } else if (e.text[0] == 'p') {
      EXPECT_EQ(e.text.size(), 900u) << "the person's words kept";
    } else {
      EXPECT_EQ(e.text.size(), 1500u) << "a turn's report kept";
    }
  }
}

class SessionLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::Env env;
    env.lore_home = t_ / "stores";
    store_ = *store::Store::Locate("github.com/acme/widgets", env);
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
  }
  testing::TempDir t_;
  std::optional<store::Store> store_;
};

TEST_F(SessionLogTest, AppendsOnceEvenWhenARunIsRepeated) {
  std::vector<Event> events{MakeEvent(EventKind::kPersonText, 1, false, "fix it"),
                            MakeEvent(EventKind::kAssistantText, 2, false, "done")};
  Span span{1, 3, "s1", "", "", "main", "/repo"};
  ASSERT_TRUE(AppendSessionLog(*store_, "s1", span, events));
  ASSERT_TRUE(AppendSessionLog(*store_, "s1", span, events));  // a rerun after a crash
  EXPECT_EQ(*LoggedThrough(SessionLogPath(*store_, "s1")), 3);
  std::vector<Event> more{MakeEvent(EventKind::kPersonText, 4, false, "now test it")};
  ASSERT_TRUE(AppendSessionLog(*store_, "s1", Span{3, 4, "s1", "", "", "", ""}, more));  // overlaps
  auto log = ReadSessionLog(SessionLogPath(*store_, "s1"), "s1");
  ASSERT_TRUE(log) << log.error().Format();
  ASSERT_EQ(log->events.size(), 3u);
  EXPECT_EQ(log->events[2].text, "now test it");
  ASSERT_EQ(log->spans.size(), 2u);
  EXPECT_EQ(log->spans[1].first, 4);
  EXPECT_EQ(log->skipped, 0);
  auto files = ListSessionLogs(*store_);
  ASSERT_TRUE(files);
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].stem, "s1");
}

TEST_F(SessionLogTest, ACutOffAppendIsFoundPastByTheLargestSpan) {
  const std::string path = SessionLogPath(*store_, "s2");
  ASSERT_TRUE(AppendSessionLog(*store_, "s2", Span{1, 5, "s2", "", "", "", ""},
                               {MakeEvent(EventKind::kPersonText, 2, false, "a")}));
  std::ofstream(path, std::ios::app) << R"({"turn":"person","line":6,"text":"torn)";
  EXPECT_EQ(*LoggedThrough(path), 5);
}

// A batch cut off by a kill (whole event lines, then part of one, no span) is
// cut back off before the next append, which then logs those lines once.
TEST_F(SessionLogTest, AnAppendKilledMidWriteIsCutOffAndLoggedAgainOnce) {
  const std::string path = SessionLogPath(*store_, "s3");
  ASSERT_TRUE(AppendSessionLog(*store_, "s3", Span{1, 2, "s3", "", "", "", ""},
                               {MakeEvent(EventKind::kPersonText, 2, false, "a")}));
  const uintmax_t logged = std::filesystem::file_size(path);
  const std::string torn =
      std::string(R"({"turn":"person","line":3,"text":"b"})") + "\n" + R"({"turn":"person","li)";
  std::ofstream(path, std::ios::app) << torn;
  std::vector<Event> again{MakeEvent(EventKind::kPersonText, 3, false, "b"),
                           MakeEvent(EventKind::kPersonText, 4, false, "c")};
  auto appended = AppendSessionLog(*store_, "s3", Span{3, 4, "s3", "", "", "", ""}, again);
  ASSERT_TRUE(appended) << appended.error().Format();
  auto log = ReadSessionLog(path, "s3");
  ASSERT_TRUE(log) << log.error().Format();
  ASSERT_EQ(log->events.size(), 3u);
  EXPECT_EQ(log->events[1].text, "b");
  EXPECT_EQ(log->events[2].text, "c");
  EXPECT_EQ(log->skipped, 0);
  // The cut-off bytes are kept in quarantine/, never deleted.
  std::ifstream copy(store_->Path("quarantine/sessions/s3.jsonl.torn-at-" + std::to_string(logged)),
                     std::ios::binary);
  std::string kept((std::istreambuf_iterator<char>(copy)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, torn);
}

TEST(SessionFiles, StemsAreSafeForAnyId) {
  EXPECT_EQ(SessionFileStem("9a7e4410-22c3"), "9a7e4410-22c3");
  std::string odd = SessionFileStem("../x y/z");
  EXPECT_EQ(odd.find('/'), std::string::npos);
  EXPECT_NE(SessionFileStem("a/b"), SessionFileStem("a_b"));
}

// Issue 38, finding 4: the gate of session ids. Refused, never shown: a
// control character (it broke the briefing, the context and lore status,
// and staging refused it forever), more than 200 bytes (a cursor lore could
// not read back), '/' or ".."; kept with its secrets replaced, a token glued
// to its words included.
TEST(SessionIds, TheGateRefusesOrCleans) {
  EXPECT_EQ(*CheckSessionId("", "id", ""), "");
  EXPECT_EQ(*CheckSessionId("9a7e4410-22c3", "id", ""), "9a7e4410-22c3");
  EXPECT_EQ(*CheckSessionId("my session 1", "id", ""), "my session 1");
  EXPECT_EQ(*CheckSessionId("sghp_1234567890abcdefghijABCDEFGHIJ123456", "id", ""),
            "s[REDACTED:github-token]");
  EXPECT_EQ(*CheckSessionId(std::string(kMaxSessionIdBytes, 'a'), "id", ""),
            std::string(kMaxSessionIdBytes, 'a'));
  const std::pair<std::string, std::string_view> refused[] = {
      {"a\nb", "control character"},
      {"a\rb", "control character"},
      {"a\x1b[2Jb", "control character"},
      {"a\x7f", "control character"},
      {"a\xc2\x9b"
       "2J",
       "control character"},
      {"a\tb", "control character"},
      {std::string(kMaxSessionIdBytes + 1, 'a'), "longer than 200 bytes"},
      {std::string(64 * 1024, 'a'), "longer than 200 bytes"},
      {"a\xff", "not valid UTF-8"},
      {"a/b", "'/' or '..'"},
      {"..", "'/' or '..'"},
      {"   ", "blank"},
      {"<private>x</private>", "blank once its private spans are dropped"},
      {std::string(12, ' ') + std::string(20, 'x') +
           " AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE "
           "AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE "
           "AKIAIOSFODNN7EXAMPLE",
       "once its secrets are replaced"}};
  for (const auto& [id, why] : refused) {
    auto r = CheckSessionId(id, "the session id of --session", "p");
    ASSERT_FALSE(r) << id;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().what.find(why), std::string::npos) << r.error().what;
    EXPECT_EQ(r.error().what.rfind("the session id of --session ", 0), 0u) << r.error().what;
    EXPECT_EQ(r.error().path, "p");
    if (id.size() > 2) {
      EXPECT_EQ(r.error().Format().find(id), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace lore::activity
