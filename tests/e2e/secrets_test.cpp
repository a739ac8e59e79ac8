// Private spans and secrets never reach the store (issue 12 item 5,
// docs/secrets.md): one secret of every rule and a <private> span are planted
// through every writing path, then the whole store is searched byte by byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;
constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

// What must never be found in the store: the core of each planted secret.
const std::vector<std::string> kCores = {
    "IOSFODNN7EXAMPLE",                      // aws-access-key
    "1234567890abcdefghijABCDEFGHIJ123456",  // github-token
    "1234567890-abcdefghijkl",               // slack-token
    "abcDEF123ghiJKL456mnoPQR789",           // openai-key
    "SyA1234567890abcdefghijklmnopqrstuv",   // google-api-key
    "MIIEpAIBAAKCAQEA7bq3",                  // private-key
    "eyJzdWIiOiIxMjM0NTY3ODkwIn0",           // jwt
    "S3cretPass9x",                          // url-password
    "Zx8kq2LmP0wR7tYv",                      // assignment
    "PRIVATE-CANARY-7731",                   // the private span
};

// One line holding a secret of every rule and a private span.
const std::string kPlant =
    "aws AKIAIOSFODNN7EXAMPLE gh ghp_1234567890abcdefghijABCDEFGHIJ123456 slack "
    "xoxb-1234567890-abcdefghijkl openai sk-proj-abcDEF123ghiJKL456mnoPQR789 google "
    "AIzaSyA1234567890abcdefghijklmnopqrstuv pem -----BEGIN RSA PRIVATE KEY----- "
    "MIIEpAIBAAKCAQEA7bq3 -----END RSA PRIVATE KEY----- jwt "
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U "
    "db postgres://admin:S3cretPass9x@db.example.com/app api_key=\"Zx8kq2LmP0wR7tYv\" "
    "note <private>PRIVATE-CANARY-7731</private> end";

// A multi-line PEM block, as a JSON string holds it.
const std::string kPemLines =
    "-----BEGIN OPENSSH PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq3\nmore\n-----END OPENSSH PRIVATE "
    "KEY-----";

class SecretsTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    RunOptions o = IsolatedOptions(t_.path(), "stores", std::move(input));
    o.env["LORE_WAVE"] = std::nullopt;
    return o;
  }
  std::string Store(const std::string& rel = "") const {
    return t_ / ("stores/" + std::string(kKey) + (rel.empty() ? "" : "/" + rel));
  }
  // Every file under LORE_HOME whose bytes hold one of the cores.
  std::vector<std::string> Leaks() const {
    std::vector<std::string> out;
    for (const auto& e : stdfs::recursive_directory_iterator(t_ / "stores")) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      for (const std::string& core : kCores) {
        if (bytes.str().find(core) != std::string::npos)
          out.push_back(e.path().string() + ": " + core);
      }
    }
    return out;
  }
  TempDir t_;
};

Json Record() {
  return Json{{"ticket", "T-1"},
              {"finding", kPlant},
              {"password", "Zx8kq2LmP0wR7tYv"},
              {"files", Json::array({kPlant, kPemLines})},
              {"depth", 12},
              {"nested", {{"lesson", kPlant}}}};
}

TEST_F(SecretsTest, NoPlantedSecretReachesTheStoreThroughAnyPath) {
  // Captures, whose other bytes are kept as written.
  std::string review = Record().dump();
  review.insert(review.size() - 1, ",\"big\":12345678901234567890");
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(review)).exit_code, 0);
  ASSERT_EQ(Lore({"append-slicing", kRepo}, Opts(Record().dump())).exit_code, 0);
  // A proposal.
  auto p = Lore({"propose", kRepo, "--type", "anti-pattern", "--subject",
                 "key AKIAIOSFODNN7EXAMPLE <private>PRIVATE-CANARY-7731</private>", "--insight",
                 kPlant, "--evidence", kPlant, "--confidence", "0.9", "--wave", "W1"},
                Opts());
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  // A staged entry.
  Json entry = {
      {"source", {{"session_id", "s1"}, {"range", {1, 9}}}},
      {"decisions", {{{"options", {kPlant, "b"}}, {"chosen", "b"}, {"rationale", kPlant}}}},
      {"discussions", {{{"topic", kPlant}, {"points", {kPemLines}}}}},
      {"attempts", {{{"action", kPlant}, {"result", kPlant}, {"succeeded", false}}}},
      {"requests", {{{"intent", kPlant}, {"target", kPlant}, {"summary", kPlant}}}}};
  auto s = Lore({"stage", kRepo}, Opts(entry.dump()));
  ASSERT_EQ(s.exit_code, 0) << s.err;
  // MCP capture_review and propose_learning.
  Json init = Json::parse(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  Json capture = {{"jsonrpc", "2.0"},
                  {"id", 1},
                  {"method", "tools/call"},
                  {"params", {{"name", "capture_review"}, {"arguments", {{"record", Record()}}}}}};
  Json propose = {{"jsonrpc", "2.0"},
                  {"id", 2},
                  {"method", "tools/call"},
                  {"params",
                   {{"name", "propose_learning"},
                    {"arguments",
                     {{"type", "convention"},
                      {"subject", "mcp " + kPlant.substr(0, 60)},
                      {"insight", kPlant},
                      {"evidence", kPlant},
                      {"confidence", 0.9},
                      {"wave", "W2"}}}}}};
  auto m = Lore({"mcp", "--repo", kRepo},
                Opts(init.dump() + "\n" + capture.dump() + "\n" + propose.dump() + "\n"));
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(m.out.find("\"isError\":true"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("appended"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("queued"), std::string::npos) << m.out;
  // A memory record.
  const std::string decision =
      "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
      "sources:\n- {session_id: s1, range: [3, 17]}\n---\n# Keys\n\n" +
      kPlant + "\n\n" + kPemLines + "\n";
  auto w = Lore({"memory", "write", kRepo, "decision", "keys"}, Opts(decision));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  // The audit line of a shell call of lore propose.
  stdfs::create_directories(t_ / "repo/.git");  // a checkout without a remote
  Json hook = {{"session_id", "s1"},
               {"cwd", t_ / "repo"},
               {"tool_input",
                {{"command",
                  "GITHUB_TOKEN=ghp_1234567890abcdefghijABCDEFGHIJ123456 lore propose "
                  ". --subject x --wave W3 # " +
                      kPlant}}}};
  ASSERT_EQ(Lore({"hook", "pre-tool-use"}, Opts(hook.dump())).exit_code, 0);

  EXPECT_EQ(Leaks(), std::vector<std::string>{});
  const std::string raw = t_.Read("stores/" + std::string(kKey) + "/raw.jsonl");
  EXPECT_NE(raw.find("\"password\":\"[REDACTED:assignment]\""), std::string::npos) << raw;
  EXPECT_NE(raw.find("\"depth\":12,"), std::string::npos) << raw;
  EXPECT_NE(raw.find("\"big\":12345678901234567890,"), std::string::npos) << raw;
  for (const char* rule : {"aws-access-key", "github-token", "slack-token", "openai-key",
                           "google-api-key", "private-key", "jwt", "url-password", "assignment"}) {
    EXPECT_NE(raw.find(std::string("[REDACTED:") + rule + "]"), std::string::npos) << rule;
  }
  EXPECT_NE(raw.find("postgres://admin:[REDACTED:url-password]@db.example.com/app"),
            std::string::npos);
  EXPECT_NE(raw.find("note  end"), std::string::npos);  // the private span is gone
  auto check = Lore({"check", kRepo, "--secrets"}, Opts());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_EQ(check.out, "ok: no secrets in " + Store() + "\n");
  EXPECT_EQ(Lore({"check", kRepo}, Opts()).exit_code, 0);
}

// Phase 1 extraction reads what the agent saw: the person's words, shell
// commands, tool results (a multi-line key among them) and a plan.
TEST_F(SecretsTest, NoPlantedSecretReachesTheStoreThroughExtractOrItsDryRun) {
  auto line = [](Json j) { return j.dump() + "\n"; };
  auto msg = [](const char* type, Json content) {
    return Json{{"type", type}, {"sessionId", "sx"}, {"message", {{"content", content}}}};
  };
  std::string transcript =
      line(msg("user", "please deploy: " + kPlant)) +
      line(msg("assistant", Json::array({{{"type", "tool_use"},
                                          {"id", "t1"},
                                          {"name", "Bash"},
                                          {"input", {{"command", "deploy.sh " + kPlant}}}}}))) +
      line(msg("user",
               Json::array({{{"type", "tool_result"},
                             {"tool_use_id", "t1"},
                             {"is_error", true},
                             {"content", "error: refused " + kPlant + "\n" + kPemLines}}}))) +
      line(msg("assistant", Json::array({{{"type", "tool_use"},
                                          {"id", "t2"},
                                          {"name", "ExitPlanMode"},
                                          {"input", {{"plan", "1. rotate " + kPlant}}}}}))) +
      line(msg("user", Json::array({{{"type", "tool_result"},
                                     {"tool_use_id", "t2"},
                                     {"content", "User has approved your plan."}}}))) +
      line(msg("user", "why did it fail with " + kPlant + "?")) +
      line(msg("assistant", "Because the key " + kPlant + " was revoked."));
  const std::string path = t_ / "session.jsonl";
  std::ofstream(path, std::ios::binary) << transcript;

  auto dry = Lore({"extract", kRepo, "--transcript", path, "--dry-run"}, Opts());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("[REDACTED:aws-access-key]"), std::string::npos) << dry.out;
  for (const std::string& core : kCores) {
    EXPECT_EQ(dry.out.find(core), std::string::npos) << core << " in " << dry.out;
  }
  auto r = Lore({"extract", kRepo, "--transcript", path}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"staged\""), std::string::npos) << r.out;
  EXPECT_TRUE(Leaks().empty()) << ::testing::PrintToString(Leaks());
  ASSERT_EQ(Lore({"consolidate", kRepo, "--flush", "--foreground"}, Opts()).exit_code, 0);
  EXPECT_TRUE(Leaks().empty()) << ::testing::PrintToString(Leaks());
}

TEST_F(SecretsTest, AFieldLeftEmptyByRedactionIsRefusedNotStored) {
  auto p = Lore({"propose", kRepo, "--type", "anti-pattern", "--subject",
                 "<private>PRIVATE-CANARY-7731</private>", "--insight", "i", "--evidence", "e",
                 "--confidence", "0.9", "--wave", "W1"},
                Opts());
  EXPECT_EQ(p.exit_code, 4);
  EXPECT_NE(p.out.find("(after removing private spans and secrets)"), std::string::npos) << p.out;
  Json entry = {{"source", {{"session_id", "s1"}, {"range", {1, 2}}}},
                {"requests", {{{"intent", "<private>PRIVATE-CANARY-7731"}, {"summary", "s"}}}}};
  auto s = Lore({"stage", kRepo}, Opts(entry.dump()));
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_NE(s.err.find("after removing private spans and secrets, staged entry field "
                       "requests[0].intent must be a non-empty string"),
            std::string::npos)
      << s.err;
  if (stdfs::exists(t_ / "stores")) {
    EXPECT_EQ(Leaks(), std::vector<std::string>{});
  }
}

TEST_F(SecretsTest, CheckSecretsReportsAnOlderStoreWithoutPrintingTheSecret) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  // Written as an older lore would have: the secrets are in the files.
  t_.Write("stores/" + std::string(kKey) + "/raw.jsonl",
           "{\"kind\":\"review\",\"note\":\"clean\"}\n{\"kind\":\"review\",\"note\":\"key "
           "AKIAIOSFODNN7EXAMPLE\"}\n{\"password\":\"Zx8kq2LmP0wR7tYv\",\"x\":\"<private>y\"}\n");
  t_.Write("stores/" + std::string(kKey) + "/knowledge/keys.md",
           "---\nkind: howto\n---\nline\njwt "
           "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9Pl\n");
  auto r = Lore({"check", kRepo, "--secrets"}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, Store("knowledge/keys.md") + ":5: secret (jwt)\n" + Store("raw.jsonl") +
                       ":2: secret (aws-access-key)\n" + Store("raw.jsonl") +
                       ":3: secret (assignment)\n" + Store("raw.jsonl") + ":3: secret (private)\n");
  EXPECT_EQ(r.err, "lore: 4 private spans or secrets found: " + Store() +
                       "; see docs/secrets.md for how to clean a store\n");
  for (const std::string& core : kCores) {
    EXPECT_EQ(r.out.find(core), std::string::npos) << core;
    EXPECT_EQ(r.err.find(core), std::string::npos) << core;
  }
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
