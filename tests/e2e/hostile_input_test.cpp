// Hostile and unlucky input (issue 11): deep nesting, numbers out of range,
// wrong types, what Python writes into a reviewer-memory store. The real
// binary on real files: never a crash, never silence, the caller's bytes kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

constexpr const char* kRemote = "https://example.org/acme/hostile";
constexpr const char* kKey = "example.org_acme_hostile";

class HostileInputTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    return IsolatedOptions(t_.path(), "stores", std::move(input));
  }
  std::string Rel(const std::string& file) const {
    return "stores/" + std::string(kKey) + "/" + file;
  }
  std::string Path(const std::string& file) const { return t_ / Rel(file); }
  void Ensure() { ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0); }

  // Exit 1, one line on stderr with a repair, nothing on stdout.
  static void ExpectOneLineRefusal(const RunResult& r, const std::string& what) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; "), std::string::npos) << r.err;
  }

  TempDir t_;
};

TEST_F(HostileInputTest, DeeplyNestedStdinIsRefusedNotACrash) {
  Ensure();
  std::string deep = "{\"a\":" + std::string(80000, '[') + std::string(80000, ']') + "}";
  auto r = Lore({"append-review", kRemote}, Opts(deep));
  ExpectOneLineRefusal(r, "nested deeper than 128 levels");
  EXPECT_NE(r.err.find("<stdin>"), std::string::npos);
  EXPECT_EQ(t_.Read(Rel("raw.jsonl")), "");
}

TEST_F(HostileInputTest, CapturesKeepTheCallersNumbersAndEscapes) {
  const std::string in =
      "{ \"big\": 123456789012345678901234567890, \"huge\": 1e400, \"f\": 1.50E+3,\n"
      "  \"s\": \"caf\\u00e9 \xE2\x80\xA8 sep\", \"kind\": \"other\" }";
  auto r = Lore({"append-review", kRemote}, Opts(in));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string raw = t_.Read(Rel("raw.jsonl"));
  const std::string head =
      "{\"big\":123456789012345678901234567890,\"huge\":1e400,\"f\":1.50E+3,"
      "\"s\":\"caf\\u00e9 \\u2028 sep\",\"kind\":\"review\",\"recorded_at\":\"";
  EXPECT_EQ(raw.substr(0, head.size()), head) << raw;
  EXPECT_EQ(raw.substr(raw.size() - 4), "Z\"}\n");
  EXPECT_EQ(std::count(raw.begin(), raw.end(), '\n'), 1);
  // What was stored reads back through check and search.
  EXPECT_EQ(Lore({"check", kRemote}, Opts()).exit_code, 0);
  auto s = Lore({"search", kRemote, "sep", "--json"}, Opts());
  EXPECT_EQ(s.exit_code, 0) << s.err;
}

TEST_F(HostileInputTest, RepeatedKeysAreRefused) {
  auto r = Lore({"append-slicing", kRemote}, Opts(R"({"verdict":"a","verdict":"b"})"));
  ExpectOneLineRefusal(r, "duplicate key \"verdict\"");
}

TEST_F(HostileInputTest, StdinOverTheLimitIsRefused) {
  Ensure();
  std::string big = "{\"a\":\"" + std::string(17 << 20, 'x') + "\"}";
  auto r = Lore({"append-review", kRemote}, Opts(big));
  ExpectOneLineRefusal(r, "over the limit of 16777216 bytes");
  EXPECT_EQ(t_.Read(Rel("raw.jsonl")), "");
}

TEST_F(HostileInputTest, WhatPythonWritesIsReadNotRefused) {
  Ensure();
  // Lines reviewer-memory's Python can write: NaN, Infinity, 1e400, a lone
  // surrogate escape, a repeated key.
  std::string lines =
      "{\"kind\":\"review\",\"score\":NaN,\"gotcha\":\"nan score\"}\n"
      "{\"kind\":\"review\",\"score\":Infinity,\"low\":-Infinity,\"gotcha\":\"infinite\"}\n"
      "{\"kind\":\"review\",\"score\":1e400,\"gotcha\":\"overflowing\"}\n"
      "{\"kind\":\"review\",\"gotcha\":\"lone \\ud800 surrogate\"}\n"
      "{\"kind\":\"review\",\"gotcha\":\"first\",\"gotcha\":\"repeated key\"}\n";
  t_.Write(Rel("raw.jsonl"), lines);
  auto c = Lore({"check", kRemote}, Opts());
  EXPECT_EQ(c.exit_code, 0) << c.err;
  auto a = Lore({"append-review", kRemote}, Opts(R"({"gotcha":"after"})"));
  EXPECT_EQ(a.exit_code, 0) << a.err;
  auto s = Lore({"search", kRemote, "overflowing", "--json"}, Opts());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("overflowing"), std::string::npos) << s.out;
  auto d = Lore({"distill", kRemote}, Opts());
  EXPECT_EQ(d.exit_code, 0) << d.err;
  // The log itself is untouched but for the append.
  EXPECT_EQ(t_.Read(Rel("raw.jsonl")).substr(0, lines.size()), lines);
}

TEST_F(HostileInputTest, DeepRawLineIsReportedAndNeverCrashesSearch) {
  Ensure();
  std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}\n";
  t_.Write(Rel("raw.jsonl"), "{\"gotcha\":\"fine line\"}\n" + deep);
  auto c = Lore({"check", kRemote}, Opts());
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_NE(c.err.find("raw.jsonl:2"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("nested deeper than 512"), std::string::npos) << c.err;
  auto s = Lore({"search", kRemote, "fine", "--json"}, Opts());
  EXPECT_LT(s.exit_code, 128) << "killed by signal " << s.exit_code - 128;
  EXPECT_EQ(s.exit_code, 0) << s.err;
}

TEST_F(HostileInputTest, HugeRawLineIsIndexedAsItsHead) {
  Ensure();
  std::string huge = "{\"gotcha\":\"needle " + std::string(3 << 20, 'x') + "\"}\n";
  t_.Write(Rel("raw.jsonl"), huge);
  auto s = Lore({"search", kRemote, "needle", "--json"}, Opts());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("needle"), std::string::npos);
}

TEST_F(HostileInputTest, HugeConfidenceInAForeignQueueLine) {
  Ensure();
  t_.Write(
      Rel("proposals.jsonl"),
      R"({"id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","created_at":"2026-05-01T10:00:00.000Z","wave_id":"W1","type":"anti-pattern","subject":"s","insight":"i","evidence":"e","confidence":9.3e18,"schema_version":1})"
      "\n");
  auto p = Lore({"proposals", kRemote}, Opts());
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out.find("-9"), std::string::npos) << p.out;
  auto j = Lore({"proposals", kRemote, "--json"}, Opts());
  EXPECT_EQ(j.exit_code, 0) << j.err;
}

std::string McpExchange(const std::string& lines, const RunOptions& base) {
  RunOptions o = base;
  o.input = lines;
  auto r = Lore({"mcp", "--repo", kRemote}, o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST_F(HostileInputTest, McpServerAnswersHostileMessagesAndKeepsServing) {
  const std::string ping = R"({"jsonrpc":"2.0","id":9,"method":"ping"})";
  const std::string deep = std::string(150000, '[') + std::string(150000, ']');
  std::string out =
      McpExchange(R"({"jsonrpc":2,"id":1,"method":"ping"})"
                  "\n" +
                      deep + "\n" + R"({"jsonrpc":"2.0","id":2,"method":1e400})" + "\n" +
                      R"({"jsonrpc":"2.0","id":3,"id":4,"method":"ping"})" + "\n" + ping + "\n",
                  Opts());
  std::vector<nlohmann::json> replies;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    replies.push_back(nlohmann::json::parse(out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(replies.size(), 5u) << out;
  EXPECT_EQ(replies[0]["error"]["code"], -32600);  // jsonrpc must be "2.0"
  EXPECT_EQ(replies[1]["error"]["code"], -32700);
  EXPECT_NE(replies[1]["error"]["message"].get<std::string>().find("nested deeper"),
            std::string::npos);
  EXPECT_EQ(replies[2]["error"]["code"], -32700);  // out of range
  EXPECT_EQ(replies[3]["error"]["code"], -32700);  // repeated key
  EXPECT_EQ(replies[4]["id"], 9);
  EXPECT_TRUE(replies[4].contains("result"));
}

TEST_F(HostileInputTest, HookPayloadsNeverFailTheHook) {
  const std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  for (const char* event : {"session-start", "pre-tool-use", "pre-compact", "session-end"}) {
    for (const std::string& payload :
         {deep, std::string(R"({"session_id":1e400,"cwd":7})"), std::string("\xff\xfe"),
          std::string(R"({"tool_input":{"command":["x"]},"cwd":null})")}) {
      auto r = Lore({"hook", event}, Opts(payload));
      EXPECT_EQ(r.exit_code, 0) << event << ": " << r.err;
      EXPECT_LE(std::count(r.err.begin(), r.err.end(), '\n'), 1) << event << ": " << r.err;
    }
  }
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
