#include "lore/hook/session.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "lore/extract/extract.h"
#include "lore/extract/rules.h"
#include "lore/json/value.h"
#include "lore/store/store.h"
#include "support/temp_dir.h"

namespace lore::hook {
namespace {

constexpr const char* kRemote = "git@github.com:acme/widgets.git";

std::string UserLine(const std::string& text) {
  return R"({"type":"user","sessionId":"s1","message":{"content":")" + text + "\"}}\n";
}

class ExtractCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::Env env;
    env.lore_home = t_ / "stores";
    auto s = store::Store::Locate(kRemote, env);
    ASSERT_TRUE(s) << s.error().Format();
    store_ = std::move(*s);
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
    transcript_ = t_ / "s1.jsonl";
    t_.Write("s1.jsonl", UserLine("Add a cache to the search path."));
    payload_.session_id = "s1";
    payload_.transcript_path = transcript_;
  }
  Result<Command> Planned() const {
    return ExtractCommand(*store_, "/usr/bin/lore", kRemote, payload_, true);
  }
  void ExtractAll() const {
    extract::RulesEngine rules;
    extract::Options o;
    o.transcript = transcript_;
    o.session = "s1";
    o.now = std::chrono::system_clock::now();
    auto r = extract::Extract(*store_, o, rules);
    ASSERT_TRUE(r) << r.error().Format();
  }

  testing::TempDir t_;
  std::optional<store::Store> store_;
  std::string transcript_;
  Payload payload_;
};

TEST_F(ExtractCommandTest, StartsAnExtractOnlyForLinesPastTheCursor) {
  auto first = Planned();
  ASSERT_TRUE(first) << first.error().Format();
  EXPECT_EQ(*first, (hook::Command{"/usr/bin/lore", "extract", kRemote, "--transcript", transcript_,
                                   "--session", "s1", "--then-consolidate"}));
  ExtractAll();
  auto after = Planned();
  ASSERT_TRUE(after) << after.error().Format();
  EXPECT_TRUE(after->empty()) << "everything was extracted: nothing to start";

  std::ofstream(transcript_, std::ios::app) << UserLine("Now make it thread-safe.");
  auto grown = Planned();
  ASSERT_TRUE(grown) << grown.error().Format();
  EXPECT_FALSE(grown->empty());
}

TEST_F(ExtractCommandTest, StartsNothingBelowTheGrowthAskedFor) {
  ExtractAll();
  const std::string line = UserLine("Now make it thread-safe.");
  std::ofstream(transcript_, std::ios::app) << line;
  const auto size = static_cast<int64_t>(line.size());
  auto below = ExtractCommand(*store_, "/usr/bin/lore", kRemote, payload_, false, size + 1);
  ASSERT_TRUE(below) << below.error().Format();
  EXPECT_TRUE(below->empty());
  auto at = ExtractCommand(*store_, "/usr/bin/lore", kRemote, payload_, false, size);
  ASSERT_TRUE(at) << at.error().Format();
  EXPECT_FALSE(at->empty());
}

TEST_F(ExtractCommandTest, AReplacedTranscriptIsExtractedAgain) {
  ExtractAll();
  // Same path, same size, another file (the cursor keeps the inode): made
  // beside it, so that it cannot reuse the old inode, then renamed over it.
  t_.Write("new.jsonl", UserLine("Add a cache to the search path."));
  std::filesystem::rename(t_ / "new.jsonl", transcript_);
  auto r = Planned();
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_FALSE(r->empty());
}

TEST_F(ExtractCommandTest, AMissingTranscriptIsAnError) {
  payload_.transcript_path = t_ / "gone.jsonl";
  EXPECT_FALSE(Planned());
}

// Issue 38, finding 4: a payload's session_id passes the gate of session
// ids where payloads are read. One with a line break, a CR or an escape,
// longer than 200 bytes, or with '/' or "..", is left out with a one-line
// problem that says why (without the id); the rest of the payload is read.
TEST(ParsePayloadTest, ASessionIdTheGateRefusesIsLeftOutAndSaysWhy) {
  for (const std::string& id :
       {std::string("a\nb"), std::string("a\rb"), std::string("a\x1b[2Jb"),
        std::string("a\xc2\x9b"
                    "2Jb"),
        std::string(300, 'x'), std::string("../../x"), std::string("a/b")}) {
    Json j = {{"session_id", id}, {"cwd", "/w"}, {"transcript_path", "/t.jsonl"}};
    std::optional<Error> problem;
    Payload p = ParsePayload(j.dump(), &problem);
    EXPECT_EQ(p.session_id, "") << id;
    EXPECT_EQ(p.cwd, "/w");
    EXPECT_EQ(p.transcript_path, "/t.jsonl");
    ASSERT_TRUE(problem) << id;
    EXPECT_EQ(problem->code, ErrorCode::kInvalidInput);
    EXPECT_EQ(problem->Format().find(id), std::string::npos) << problem->Format();
    EXPECT_EQ(problem->Format().find('\n'), std::string::npos) << problem->Format();
    EXPECT_NE(problem->what.find("the hook payload's session_id"), std::string::npos);
  }
  std::optional<Error> problem;
  Payload p = ParsePayload(R"({"session_id":"3f2b6c1e-9a4d-4e2f-8b7a-0c1d2e3f4a5b"})", &problem);
  EXPECT_FALSE(problem);
  EXPECT_EQ(p.session_id, "3f2b6c1e-9a4d-4e2f-8b7a-0c1d2e3f4a5b");
  p = ParsePayload(R"({"session_id":"s-ghp_1234567890abcdefghijABCDEFGHIJ123456"})", &problem);
  EXPECT_FALSE(problem);
  EXPECT_EQ(p.session_id, "s-[REDACTED:github-token]");
}

}  // namespace
}  // namespace lore::hook

namespace lore::hook {
namespace {

TEST_F(ExtractCommandTest, KeptLearningsComeFirstInTheContextCountedAndSurestFirst) {
  std::ofstream(store_->learnings_path())
      << R"({"id":"a","type":"convention","subject":"Run the hooks","insight":"never commit with --no-verify","confidence":0.6,"expires_at":"2099-01-01T00:00:00Z"})"
      << "\n"
      << R"({"id":"b","type":"fragile-file","subject":"config.toml","insight":"the parser\u001b[2J keeps comments\nonly on the first pass","confidence":0.9,"expires_at":"2099-01-01T00:00:00Z"})"
      << "\n"
      << R"({"id":"c","type":"convention","subject":"Old rule","insight":"long gone","confidence":0.9,"expires_at":"2001-01-01T00:00:00Z"})"
      << "\nnot json\n";
  auto context = SessionStartContext(*store_, "startup", kRemote);
  ASSERT_TRUE(context) << context.error().Format();
  const std::string& c = *context;
  const size_t head = c.find("## What the person reviewed and kept (2 learnings;");
  ASSERT_NE(head, std::string::npos) << c;
  const size_t b = c.find("- [fragile-file] config.toml: the parser [2J keeps comments only on");
  const size_t a = c.find("- [convention] Run the hooks: never commit with --no-verify");
  ASSERT_NE(b, std::string::npos) << c;
  ASSERT_NE(a, std::string::npos) << c;
  EXPECT_LT(head, b);
  EXPECT_LT(b, a) << "the surest first";
  EXPECT_EQ(c.find("Old rule"), std::string::npos) << "an expired learning is not live";
  EXPECT_EQ(c.find('\x1b'), std::string::npos);
}

// The context a hook prints is written exactly as nlohmann's dump with its
// replace handler would write it, for any bytes: quotes, backslashes, every
// control character, DEL, multi-byte UTF-8 and bytes that are not UTF-8.
TEST(ContextJsonTest, WritesWhatNlohmannWouldForAnyBytes) {
  auto reference = [](std::string_view event, std::string_view context) {
    Json out;
    out["hookSpecificOutput"]["hookEventName"] = std::string(event);
    out["hookSpecificOutput"]["additionalContext"] = std::string(context);
    return out.dump(-1, ' ', false, Json::error_handler_t::replace);
  };
  std::vector<std::string> cases = {"",
                                    "plain",
                                    "say \"hi\"\\ now\n\ttab\r\b\f",
                                    std::string("nul\0byte", 8),
                                    "\x01\x1f\x7f",
                                    "é → 漢字 🎉",
                                    "bad \xff byte",
                                    "cut \xe2\x82",
                                    "\xed\xa0\x80 surrogate"};
  std::mt19937 rng(20261207);  // fixed: the same cases every run
  const char* pieces[] = {"a", " ",  "\"", "\\",   "\n",   "\x01", "\x7f",
                          "é", "漢", "🎉",  "\xff", "\xc3", "\x80", "\xf0\x9f"};
  for (int n = 0; n < 2000; ++n) {
    std::string s;
    for (int k = static_cast<int>(rng() % 24); k > 0; --k) s += pieces[rng() % std::size(pieces)];
    cases.push_back(s);
  }
  for (const auto& c : cases) {
    EXPECT_EQ(ContextJson("UserPromptSubmit", c), reference("UserPromptSubmit", c)) << c;
  }
  EXPECT_EQ(SessionStartJson("x"), reference("SessionStart", "x"));
}

}  // namespace
}  // namespace lore::hook
