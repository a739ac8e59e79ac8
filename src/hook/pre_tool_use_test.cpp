#include "lore/hook/pre_tool_use.h"
#include "lore/json/dump_js.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace lore::hook {
namespace {

TEST(RedactTest, EveryFlagForm) {
  EXPECT_EQ(Redact("lore propose r --insight=plain --subject=\"two words\" --evidence='single q'"),
            "lore propose r --insight=[REDACTED] --subject=[REDACTED] --evidence=[REDACTED]");
  EXPECT_EQ(
      Redact("lore propose r --insight plain --subject \"two \\\"words\\\"\" --evidence 'single q' "
             "--content $'ansi\\'s' --reason \"x\"y --type convention"),
      "lore propose r --insight [REDACTED] --subject [REDACTED] --evidence [REDACTED] --content "
      "[REDACTED] --reason [REDACTED] --type convention");
  // The whole flag quoted, a flag at the end, an unterminated quote.
  EXPECT_EQ(Redact("lore propose r \"--insight=a b\" --subject"),
            "lore propose r --insight=[REDACTED] --subject");
  EXPECT_EQ(Redact("lore propose r --evidence \"never closed"),
            "lore propose r --evidence [REDACTED]");
  EXPECT_EQ(Redact("lore propose r --subject=x; echo --insight y"),
            "lore propose r --subject=[REDACTED]; echo --insight [REDACTED]");
  // Look-alikes are left alone.
  EXPECT_EQ(Redact("lore propose r --insights x --subjectx=y"),
            "lore propose r --insights x --subjectx=y");
}

TEST(DetectTest, WhatCountsAsAProposeCall) {
  auto runs = [](std::string_view c) { return InvokesPropose(SplitWords(c)); };
  EXPECT_TRUE(runs("lore propose . --type x"));
  EXPECT_TRUE(runs("/usr/local/bin/lore propose ."));
  EXPECT_TRUE(runs("LORE_WAVE=W1 lore propose ."));
  EXPECT_TRUE(runs("cd repo && env -i LORE_WAVE=2 lore propose ."));
  EXPECT_TRUE(runs("true; lore propose"));
  EXPECT_FALSE(runs("echo \"lore propose\""));
  EXPECT_FALSE(runs("echo lore propose"));
  EXPECT_FALSE(runs("lore proposals ."));
  EXPECT_FALSE(runs("grep lore propose.txt"));
  EXPECT_FALSE(runs(""));
}

TEST(DetectTest, Wave) {
  EXPECT_EQ(WaveOf(SplitWords("lore propose . --wave W7"), "E"), "W7");
  EXPECT_EQ(WaveOf(SplitWords("lore propose . --wave=W8"), "E"), "W8");
  EXPECT_EQ(WaveOf(SplitWords("LORE_WAVE=W9 lore propose ."), "E"), "W9");
  EXPECT_EQ(WaveOf(SplitWords("lore propose ."), "E"), "E");
  EXPECT_EQ(WaveOf(SplitWords("lore propose ."), ""), std::nullopt);
}

TEST(ProposeEventTest, EventShape) {
  Json payload = Json::parse(R"({"session_id":"s1","cwd":"/w","tool_name":"Bash",
      "tool_input":{"command":"lore propose . --subject \"secret\" --wave W2"}})");
  auto e = ProposeEvent(payload, "", "/elsewhere",
                        text::TimePoint(std::chrono::milliseconds(1700000000123)));
  ASSERT_TRUE(e);
  EXPECT_EQ(
      json::DumpJs(*e),
      R"({"timestamp":"2023-11-14T22:13:20.123Z","event":"memory.propose_invoked","session_id":"s1","wave":"W2","argv_truncated":"lore propose . --subject [REDACTED] --wave W2","cwd":"/w","exit_code":null})");
  payload["tool_input"]["command"] = "lore propose . --type " + std::string(600, 'x');
  e = ProposeEvent(payload, "", "/", {});
  EXPECT_EQ((*e)["argv_truncated"].get<std::string>().size(), kArgvMax);
  payload["tool_input"]["command"] = "ls";
  EXPECT_FALSE(ProposeEvent(payload, "", "/", {}));
  EXPECT_FALSE(ProposeEvent(Json::parse(R"({"tool_name":"Read","tool_input":{"file_path":"x"}})"),
                            "", "/", {}));
}

// Issue 25: every string of the event passes the redactor.
TEST(ProposeEventTest, SessionWaveAndCwdAreCleaned) {
  Json payload = Json::parse(R"({"session_id":"s ghp_1234567890abcdefghijABCDEFGHIJ123456",
      "cwd":"/w/<private>x</private>y","tool_input":{"command":
      "lore propose . --wave 'W AKIAIOSFODNN7EXAMPLE' --subject s"}})");
  auto e = ProposeEvent(payload, "", "/", {});
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["session_id"], "s [REDACTED:github-token]");
  EXPECT_EQ((*e)["wave"], "W [REDACTED:aws-access-key]");
  EXPECT_EQ((*e)["cwd"], "/w/y");
  EXPECT_EQ((*e)["argv_truncated"],
            "lore propose . --wave 'W [REDACTED:aws-access-key]' --subject [REDACTED]");
  payload = Json::parse(R"({"tool_input":{"command":"lore propose ."}})");
  EXPECT_EQ((*ProposeEvent(payload, "npm_abcdefghijklmnopqrstuvwxyz0123456789", "/", {}))["wave"],
            "[REDACTED:npm-token]");
}

// Issue 38: the session id passes the gate of ids (a control character or
// more than 200 bytes: left out), and the session id and the wave are
// cleaned as ids (a token glued to a letter or '-' of them is found).
TEST(ProposeEventTest, SessionIdAndWaveAreGatedAsIds) {
  const std::string gh = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
  Json payload = {{"session_id", "s" + gh},
                  {"tool_input", {{"command", "lore propose . --wave wave-" + gh}}}};
  auto e = ProposeEvent(payload, "", "/", {});
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["session_id"], "s[REDACTED:github-token]");
  EXPECT_EQ((*e)["wave"], "wave-[REDACTED:github-token]");
  for (const std::string& id : {std::string("a\x1b]0;title\x07"
                                            "b"),
                                std::string("a\nb"), std::string(300, 'x'), std::string("../x")}) {
    payload["session_id"] = id;
    e = ProposeEvent(payload, "", "/", {});
    ASSERT_TRUE(e);
    EXPECT_TRUE((*e)["session_id"].is_null()) << id;
  }
}

TEST(ProposeEventTest, AppendsToTheStoreOfCwd) {
  testing::TempDir t;
  store::Env env;
  env.lore_home = t / "stores";
  std::filesystem::create_directories(t / "repo/.git");  // a checkout (without a remote)
  const std::string payload =
      R"({"session_id":null,"cwd":")" + t / "repo" +
      R"(","tool_name":"Bash","tool_input":{"command":"lore propose . --insight=x"}})";
  auto r = RecordPreToolUse(payload, env, "W1", "/", {});
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_TRUE(*r);
  auto store = store::Store::Locate(t / "repo", env);
  std::string events = t.Read(store->dir().substr(t.path().size() + 1) + "/events.jsonl");
  EXPECT_NE(events.find("\"session_id\":null,\"wave\":\"W1\",\"argv_truncated\":\"lore propose . "
                        "--insight=[REDACTED]\""),
            std::string::npos)
      << events;
  EXPECT_FALSE(*RecordPreToolUse(R"({"tool_input":{"command":"ls"}})", env, "", "/", {}));
  EXPECT_FALSE(RecordPreToolUse("not json", env, "", "/", {}));
}

}  // namespace
}  // namespace lore::hook
