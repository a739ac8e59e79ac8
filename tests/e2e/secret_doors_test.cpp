// Issue 25: every door into the store passes the redactor. Each test plants
// one secret of every kind the redactor knows (tests/support/planted_secrets.h)
// through one door of the real binary, then reads every file under LORE_HOME
// and every file name: no planted secret's core may be found (in a file name,
// in any case), and `lore check --secrets` finds nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/extract_fixture.h"
#include "support/fake_openai.h"
#include "support/planted_secrets.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Every planted text, one after the other.
std::string AllText(const std::string& sep = " | ") {
  std::string out;
  for (const Planted& p : AllPlanted()) out += (out.empty() ? "" : sep) + p.text;
  return out;
}

class SecretDoorsTest : public ExtractFixture {
 protected:
  // "<file>: <rule> <core>" for every core found under LORE_HOME: in a
  // file's bytes, or (in any case) in its path below LORE_HOME.
  std::vector<std::string> Leaks() const {
    std::vector<std::string> out;
    const std::string home = t_ / "home/.lore";
    for (const auto& e : stdfs::recursive_directory_iterator(home)) {
      const std::string rel = stdfs::relative(e.path(), home).string();
      std::string bytes;
      if (e.is_regular_file() && !e.is_symlink()) {
        std::ifstream in(e.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        bytes = ss.str();
      }
      for (const Planted& p : AllPlanted()) {
        if (bytes.find(p.core) != std::string::npos) out.push_back(rel + ": " + p.rule);
        if (Lower(rel).find(Lower(p.core)) != std::string::npos)
          out.push_back(rel + ": " + p.rule + " in the name");
      }
    }
    return out;
  }
  void ExpectNoLeak() const {
    EXPECT_EQ(Leaks(), std::vector<std::string>{});
    auto check = Lore({"check", kRepo, "--secrets"}, Opts());
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  }
  RunResult Propose(const std::vector<std::string>& extra, RunOptions o) {
    std::vector<std::string> args{"propose",    kRepo, "--type",       "convention",
                                  "--subject",  "s",   "--insight",    "i",
                                  "--evidence", "e",   "--confidence", "0.9"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Lore(args, std::move(o));
  }
  // One MCP session: initialize, then `calls` (name, arguments) in order.
  RunResult Mcp(const std::vector<std::pair<std::string, Json>>& calls) {
    std::string in =
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
        "\n";
    int id = 0;
    for (const auto& [name, args] : calls) {
      in += Json{{"jsonrpc", "2.0"},
                 {"id", ++id},
                 {"method", "tools/call"},
                 {"params", {{"name", name}, {"arguments", args}}}}
                .dump() +
            "\n";
    }
    return Lore({"mcp", "--repo", kRepo}, Opts(in));
  }
};

// The doors that were already redacted, with the kinds added for issue 25:
// capture values, propose's text flags, a staged entry, a record's body.
TEST_F(SecretDoorsTest, TextOfEveryKindThroughTheTextDoors) {
  Json review = {{"ticket", "T-1"}, {"finding", AllText()}, {"nested", {{"x", AllText("\n")}}}};
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(review.dump())).exit_code, 0);
  auto p = Lore({"propose", kRepo, "--type", "convention", "--subject", AllPlanted()[0].text,
                 "--insight", AllText(" ").substr(0, 1500), "--evidence", AllText(" "),
                 "--confidence", "0.9", "--wave", "W1"},
                Opts());
  EXPECT_EQ(p.exit_code, 0) << p.out << p.err;
  Json entry = {{"source", {{"session_id", "s1"}, {"range", {1, 2}}}},
                {"requests", {{{"intent", AllText()}, {"summary", AllText("\n")}}}}};
  Stage(entry.dump());
  auto w = Lore({"memory", "write", kRepo, "decision", "keys"},
                Opts("---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n"
                     "status: open\nsources: []\n---\n# Keys\n\n" +
                     AllText("\n\n") + "\n"));
  EXPECT_EQ(w.exit_code, 0) << w.err;
  ExpectNoLeak();
}

// Issue 38, finding 3: a record's frontmatter, every key and value, through
// every way a record is written: --set and --source of memory write and
// edit, and a whole record on standard input (what the page's edit form
// sends goes the same way, memory::EditText).
TEST_F(SecretDoorsTest, RecordFrontmatterOfEveryKind) {
  std::vector<std::string> set, source;
  int n = 0;
  for (const Planted& s : AllPlanted()) {
    if (s.text.find('\n') != std::string::npos) continue;  // a value is one line
    set.insert(set.end(), {"--set", "note" + std::to_string(n++) + "=" + s.text});
    if (s.word) source.insert(source.end(), {"--source", s.text + ":" + std::to_string(n)});
  }
  std::vector<std::string> args = {"memory", "write", kRepo, "decision", "set-keys", "--body", "b"};
  args.insert(args.end(), set.begin(), set.end());
  args.insert(args.end(), source.begin(), source.end());
  auto w = Lore(args, Opts());
  EXPECT_EQ(w.exit_code, 0) << w.out << w.err;
  std::string record = "---\n";
  for (const Planted& s : AllPlanted()) {
    if (s.text.find('\n') == std::string::npos) record += "# " + s.text + "\n";  // comments
  }
  record +=
      "created_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n"
      "status: open\nsources: []\n";
  n = 0;
  for (const Planted& s : AllPlanted()) {
    const std::string one = Json(s.text).dump();  // a JSON string is a YAML scalar
    record += "k" + std::to_string(n++) + ": " + one + "\n";
    if (s.text.find('\n') == std::string::npos && one.size() < 1024) record += one + ": key\n";
    record += "n" + std::to_string(n) + ": {deep: [" + one + "]}\n";
  }
  record += "---\nbody\n";
  auto r = Lore({"memory", "write", kRepo, "decision", "stdin-keys"}, Opts(record));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto e = Lore(
      {"memory", "edit", kRepo, "decision", "stdin-keys", "--set", "owner=" + AllPlanted()[1].text},
      Opts());
  EXPECT_EQ(e.exit_code, 0) << e.out << e.err;
  EXPECT_NE(Read("memory/decisions/set-keys.md").find("[REDACTED:github-token]"),
            std::string::npos);
  EXPECT_NE(Read("memory/decisions/stdin-keys.md").find("owner: \"[REDACTED:github-token]\""),
            std::string::npos)
      << Read("memory/decisions/stdin-keys.md");
  ExpectNoLeak();
}

// JSON keys of captured records (append-review, append-slicing, MCP).
TEST_F(SecretDoorsTest, CapturedKeysOfEveryKind) {
  Json record = {{"ticket", "T-2"}};
  Json nested = Json::object();
  for (const Planted& p : AllPlanted()) {
    record[p.text] = "value";
    nested[p.text] = {{p.text, 1}};
  }
  record["nested"] = nested;
  for (const char* verb : {"append-review", "append-slicing"}) {
    auto r = Lore({verb, kRepo}, Opts(record.dump()));
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  auto m = Mcp({{"capture_review", {{"record", record}}}});
  EXPECT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(m.out.find("appended"), std::string::npos) << m.out;
  ExpectNoLeak();
  // Two keys that clean alike stay two members.
  EXPECT_NE(Read("raw.jsonl").find("\"[REDACTED:stripe-key]~2\":\"value\""), std::string::npos);
}

// propose's --wave (a file name: the wave's summary), LORE_WAVE, --agent and
// --file-paths, and MCP propose_learning's wave.
TEST_F(SecretDoorsTest, ProposeWaveAgentAndFilePathsOfEveryKind) {
  auto p = Propose({"--wave", "W1", "--agent", AllText(), "--file-paths", "src/a.cc"}, Opts());
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  EXPECT_NE(Read("proposals.jsonl").find("\"proposed_by_agent\":\"[REDACTED:aws-access-key] | "),
            std::string::npos);
  // A wave that held a secret is no wave id any more: refused, and it says why.
  std::vector<std::pair<std::string, Json>> mcp;
  int n = 0;
  for (const Planted& s : AllPlanted()) {
    if (!s.word) continue;
    mcp.push_back({"propose_learning",
                   {{"type", "convention"},
                    {"subject", "s"},
                    {"insight", "i"},
                    {"evidence", "e"},
                    {"confidence", 0.5},
                    {"wave", s.text}}});
    if (n++ % 5 != 0) continue;  // every kind through MCP, one in five through the CLI too
    auto r = Propose({"--wave", s.text}, Opts());
    EXPECT_EQ(r.exit_code, 4) << s.rule << r.out;
    EXPECT_NE(r.out.find("wave_id must match ^[A-Za-z0-9_-]+$, got: \\\"[REDACTED:" + s.rule +
                         "]\\\" (after removing private spans and secrets)"),
              std::string::npos)
        << r.out;
  }
  RunOptions env = Opts();
  env.env["LORE_WAVE"] = AllPlanted()[1].text;
  EXPECT_EQ(Propose({}, env).exit_code, 4);
  // A wave is a file name: a secret glued to its other words is found too.
  EXPECT_EQ(Propose({"--wave", "W-" + AllPlanted()[1].text + "-2"}, Opts()).exit_code, 4);
  // A wave is an id, one word: glued to a letter too (issue 38).
  EXPECT_EQ(Propose({"--wave", "W" + AllPlanted()[1].text}, Opts()).exit_code, 4);
  // Every path that held a secret or a private span is refused, named cleaned.
  std::string paths;
  for (const Planted& s : AllPlanted()) {
    if (s.text.find(',') == std::string::npos) paths += (paths.empty() ? "" : ",") + s.text;
  }
  auto f = Propose({"--wave", "W2", "--file-paths", paths}, Opts());
  EXPECT_EQ(f.exit_code, 4);
  EXPECT_NE(f.out.find("(after removing private spans and secrets)"), std::string::npos) << f.out;
  // A private span in a wave is only dropped (another insight: the same proposal as W1's
  // would be already queued).
  EXPECT_EQ(Lore({"propose", kRepo, "--type", "convention", "--subject", "s", "--insight", "i3",
                  "--evidence", "e", "--confidence", "0.9", "--wave", "W<private>x</private>3"},
                 Opts())
                .exit_code,
            0);
  EXPECT_NE(Read("proposals.jsonl").find("\"wave_id\":\"W3\""), std::string::npos);
  auto m = Mcp(mcp);
  EXPECT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(m.out.find("\"queued\""), std::string::npos) << m.out;
  ExpectNoLeak();
}

// The PreToolUse hook's event: session id, wave (from the command and from
// LORE_WAVE), cwd and the command itself.
TEST_F(SecretDoorsTest, HookEventOfEveryKind) {
  stdfs::create_directories(t_ / "repo/.git");  // a checkout without a remote
  for (const std::string& wave : {AllText(), std::string()}) {
    // A session id is at most 200 bytes (issue 38): two kinds.
    Json hook = {{"session_id", AllPlanted()[0].text + " | " + AllPlanted()[1].text},
                 {"cwd", t_ / "repo"},
                 {"tool_input",
                  {{"command", "lore propose . --subject x" +
                                   (wave.empty() ? "" : " --wave '" + wave + "'")}}}};
    RunOptions o = Opts(hook.dump());
    o.env["LORE_WAVE"] = AllText();  // the wave when the command gives none
    EXPECT_EQ(Lore({"hook", "pre-tool-use"}, o).exit_code, 0);
  }
  ExpectNoLeak();
  // Both events went to the store of the payload's cwd (keyed by its path).
  std::string events;
  for (const auto& e : stdfs::recursive_directory_iterator(t_ / "home/.lore")) {
    if (e.path().filename() == "events.jsonl")
      events += t_.Read(stdfs::relative(e.path(), t_.path()));
  }
  EXPECT_EQ(std::count(events.begin(), events.end(), '\n'), 2) << events;
  EXPECT_NE(events.find("\"session_id\":\"[REDACTED:aws-access-key] | "), std::string::npos);
  EXPECT_NE(events.find("\"wave\":\"[REDACTED:aws-access-key] | "), std::string::npos);
}

// extract --session: the cursor's file name and the id it holds.
TEST_F(SecretDoorsTest, ExtractSessionIdOfEveryKind) {
  WriteTranscript(UserLine("Please add a retry to the client."));
  // Kinds that alone make a plain id short enough to be kept whole as the
  // cursor's file name.
  std::vector<std::string> ids;
  for (const char* rule :
       {"aws-access-key", "github-token", "stripe-key", "gitlab-token", "npm-token",
        "huggingface-token", "digitalocean-token", "twilio-key", "mailchimp-key"}) {
    for (const Planted& s : AllPlanted()) {
      if (s.rule == rule && s.word) {
        ids.push_back(s.text);
        break;
      }
    }
  }
  ids.push_back("session-" + ids[1] + "-2");  // glued to the words of the id
  ids.push_back("s" + ids[1]);                // glued to a letter (issue 38)
  for (const std::string& id : ids) {
    auto r = Extract({"--session", id});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  // The cursor of a cleaned id is found again.
  EXPECT_NE(Extract({"--session", ids[1]}).out.find("\"nothing-new\""), std::string::npos);
  // Every kind at once is longer than an id may be (issue 38): refused, and
  // neither the error nor the record of the failed run shows it.
  std::string all;
  for (const Planted& s : AllPlanted()) {
    if (s.text.find('\n') == std::string::npos) all += (all.empty() ? "" : " ") + s.text;
  }
  auto r = Extract({"--session", all});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the session id of --session is longer than 200 bytes"), std::string::npos)
      << r.err;
  for (const Planted& s : AllPlanted()) EXPECT_EQ(r.err.find(s.core), std::string::npos);
  ExpectNoLeak();
}

// Issue 38, findings 1 and 2: a transcript's gitBranch and cwd, and its path
// (kept in the extract cursor), reach the session log, the briefing, okf/
// and the next session's context: cleaned, one line without escapes.
TEST_F(SecretDoorsTest, TranscriptBranchCwdAndPathOfEveryKind) {
  const Planted& word = AllPlanted()[1];  // a GitHub token, one word: a folder's name
  ASSERT_TRUE(word.word);
  stdfs::create_directories(t_ / word.text);
  const std::string transcript = t_ / (word.text + "/session.jsonl");
  std::string lines;
  int n = 0;
  for (const Planted& s : AllPlanted()) {
    Json line = {{"type", "user"},
                 {"sessionId", "sess-1"},
                 {"gitBranch", "fix/" + s.text + "\x1b]0;owned\x07"},
                 {"cwd", "/w/" + s.text + "\x1b[2J"},
                 {"timestamp", "2026-05-01T10:00:0" + std::to_string(n++ % 10) + "Z"},
                 {"message", {{"role", "user"}, {"content", "Please add a retry to the client."}}}};
    lines += line.dump() + "\n";
  }
  t_.Write(stdfs::relative(transcript, t_.path()).string(), lines);
  auto x = Lore({"extract", kRepo, "--transcript", transcript}, Opts());
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto c = Lore({"consolidate", kRepo, "--flush", "--foreground"}, Opts());
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  t_.Write("checkout/.git/config", std::string("[remote \"origin\"]\n\turl = ") + kRepo + "\n");
  RunOptions o =
      Opts(Json{{"session_id", "s2"}, {"source", "startup"}, {"cwd", t_ / "checkout"}}.dump());
  auto start = Lore({"hook", "session-start"}, o);
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const std::string ctx =
      Json::parse(start.out)["hookSpecificOutput"]["additionalContext"].get<std::string>();
  EXPECT_NE(ctx.find("[REDACTED:"), std::string::npos) << ctx;  // the branch, cleaned
  for (const Planted& s : AllPlanted()) EXPECT_EQ(ctx.find(s.core), std::string::npos) << s.rule;
  EXPECT_EQ(ctx.find('\x1b'), std::string::npos) << ctx;
  for (const char* rel : {"memory/summary.md", "okf/index.md"}) {
    EXPECT_EQ(Read(rel).find('\x1b'), std::string::npos) << rel;
  }
  for (const auto& e : stdfs::recursive_directory_iterator(Path("."))) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str().find("\\u001b"), std::string::npos) << e.path();
    EXPECT_EQ(ss.str().find('\x1b'), std::string::npos) << e.path();
  }
  ExpectNoLeak();
}

// A queue line written by another program, promoted (and another declined):
// learnings.jsonl, proposals.rejected.jsonl and the archive.
TEST_F(SecretDoorsTest, ForeignQueueLinePromotedOrDeclined) {
  auto line = [](int n, const std::string& wave) {
    Json r = {{"id", "0000000" + std::to_string(n) + "-2222-4222-8222-222222222222"},
              {"created_at", "2026-05-01T00:00:00.000Z"},
              {"wave_id", wave},
              {"type", "convention"},
              {"subject", "deploy keys"},
              {"insight", AllText()},
              {"evidence", AllText()},
              {"confidence", 0.5},
              {"schema_version", 1},
              {"proposed_by_agent", AllText()}};
    for (const Planted& s : AllPlanted()) r["x " + s.text] = s.text;
    return r.dump() + "\n";
  };
  Write("proposals.jsonl", line(1, AllPlanted()[1].text) + line(2, AllPlanted()[2].text));
  auto r = Lore({"review", kRepo, "--session", AllText(), "--approve",
                 "00000001-2222-4222-8222-222222222222"},
                Opts());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_NE(Read("learnings.jsonl").find("[REDACTED:github-token]"), std::string::npos);
  EXPECT_NE(Read("proposals.rejected.jsonl").find("[REDACTED:github-token]"), std::string::npos);
  EXPECT_NE(Read("proposals-archive.jsonl").find("[REDACTED:github-token]"), std::string::npos);
  ExpectNoLeak();
}

// Slugs made from a decision's options and a request: a secret never
// reaches a file name, not even one that lower case and hyphens make
// ("SK PROJ ..." becomes "sk-proj-...", an OpenAI key's shape).
TEST_F(SecretDoorsTest, SlugsFromOptionsAndRequestsOfEveryKind) {
  Json decisions = Json::array(), requests = Json::array();
  for (const Planted& s : AllPlanted()) {
    const std::string option = "use " + s.text;  // a private span alone would leave nothing
    decisions.push_back({{"options", {option, "other"}}, {"chosen", option}, {"rationale", "r"}});
    requests.push_back({{"intent", option}, {"target", s.text + " x"}, {"summary", "s"}});
  }
  const std::string shaped = "SK PROJ " + Fake(30, planted::kAlnum, 10007);
  decisions.push_back({{"options", {shaped}}, {"chosen", shaped}, {"rationale", "r"}});
  requests.push_back({{"intent", shaped}, {"target", nullptr}, {"summary", "s"}});
  Json entry = {{"source", {{"session_id", "s1"}, {"range", {1, 2}}}},
                {"decisions", decisions},
                {"requests", requests}};
  Stage(entry.dump());
  auto c = Lore({"consolidate", kRepo, "--flush", "--foreground"}, Opts());
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  ExpectNoLeak();
  for (const auto& [rel, bytes] : Records()) {
    EXPECT_EQ(Lower(rel).find(Lower(shaped.substr(8))), std::string::npos) << rel;
  }
}

// lore check --secrets reads file names too, and shows them cleaned.
TEST_F(SecretDoorsTest, CheckSecretsFindsFileNames) {
  const Planted& key = AllPlanted()[1];  // a GitHub token
  Write("knowledge/" + key.text + ".md", "---\nkind: rule\n---\nclean\n");
  auto r = Lore({"check", kRepo, "--secrets"}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, Path("knowledge/[REDACTED:github-token].md") +
                       ": secret in the file name (github-token)\n");
  EXPECT_EQ(r.out.find(key.core), std::string::npos);
  EXPECT_EQ(r.err.find(key.core), std::string::npos);
}

// What a model writes: the LLM consolidation's memory_write.
TEST_F(SecretDoorsTest, ModelWrittenRecordOfEveryKind) {
  const std::string id = Stage(
      R"({"source":{"session_id":"s1","range":[3,7]},"decisions":[{"options":["a","b"],"chosen":"a","rationale":"r"}]})");
  const std::string record = "---\nstatus: open\n---\n# Keys\n\n" + AllText("\n\n") + "\n\ntail\n";
  FakeOpenAi server(
      {FakeOpenAi::Calls(
           {{"memory_write",
             {{"path", "memory/decisions/keys.md"}, {"content", record}, {"entry_ids", {id}}}}}),
       FakeOpenAi::Calls({{"finish", {{"summary", "done"}}}})});
  Write("config.toml",
        "[memory]\nconsolidation_model = \"m\"\n\n[memory.consolidation]\n"
        "engine = \"llm\"\n\n[llm]\nbase_url = \"" +
            server.base_url() +
            "\"\napi_key_env = \"LORE_TEST_LLM_KEY\"\ntimeout_seconds = 5\n"
            "max_retries = 0\n");
  RunOptions o = Opts();
  o.env["LORE_TEST_LLM_KEY"] = "k";
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(Read("memory/decisions/keys.md").find("[REDACTED:aws-access-key]"), std::string::npos);
  ExpectNoLeak();
}

// What a model writes: lore distill --llm's digest, okf/index.md.
TEST_F(SecretDoorsTest, ModelWrittenDigestOfEveryKind) {
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(R"({"ticket":"T","finding":"f"})")).exit_code, 0);
  // Within the digest's rules once cleaned: a heading, six kinds a line.
  std::string digest = "# app memory\n";
  int n = 0;
  for (const Planted& s : AllPlanted()) digest += (n++ % 6 == 0 ? "\n- " : " ") + s.text;
  digest += "\n";
  FakeOpenAi server({FakeOpenAi::Text(digest)});
  Write("config.toml", "[memory]\nconsolidation_model = \"m\"\n\n[llm]\nbase_url = \"" +
                           server.base_url() +
                           "\"\napi_key_env = \"LORE_TEST_LLM_KEY\"\ntimeout_seconds = 5\n"
                           "max_retries = 0\n");
  RunOptions o = Opts();
  o.env["LORE_TEST_LLM_KEY"] = "k";
  auto r = Lore({"distill", kRepo, "--llm"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(Read("okf/index.md").find("[REDACTED:github-token]"), std::string::npos);
  ExpectNoLeak();
}

// The LLM extract digest sent to the model, and a private span split across
// the text blocks of one message (dry run, store, model).
TEST_F(SecretDoorsTest, ExtractDigestAndSplitPrivateSpans) {
  auto msg = [](const char* type, Json content) {
    return Json{{"type", type},
                {"sessionId", "sx"},
                {"message", {{"role", type}, {"content", std::move(content)}}}}
               .dump() +
           "\n";
  };
  auto text = [](const std::string& t) { return Json{{"type", "text"}, {"text", t}}; };
  WriteTranscript(
      msg("user", "please rotate the keys " + AllText()) +
      msg("user", Json::array({text("note <private>"), text("SPLIT-CANARY-1 " + AllText()),
                               text("</private> the rest is kept")})) +
      msg("assistant", Json::array({text("I will <PRIVATE >"),
                                    Json{{"type", "tool_use"},
                                         {"id", "t1"},
                                         {"name", "Bash"},
                                         {"input", {{"command", "rotate.sh"}}}},
                                    text("SPLIT-CANARY-2</private> done")})));
  auto dry = Extract({"--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("the rest is kept"), std::string::npos) << dry.out;
  for (const char* canary : {"SPLIT-CANARY-1", "SPLIT-CANARY-2"}) {
    EXPECT_EQ(dry.out.find(canary), std::string::npos) << dry.out;
  }
  for (const Planted& s : AllPlanted()) EXPECT_EQ(dry.out.find(s.core), std::string::npos);

  FakeOpenAi server({FakeOpenAi::Text(R"({"requests":[{"intent":"rotate the keys","target":null,)"
                                      R"("summary":"rotate the keys"}]})")});
  Write("config.toml", "[memory]\nextract_model = \"m\"\n\n[llm]\nbase_url = \"" +
                           server.base_url() +
                           "\"\napi_key_env = \"LORE_TEST_LLM_KEY\"\ntimeout_seconds = 5\n"
                           "max_retries = 0\n");
  auto r = Extract({"--engine", "llm"}, false, {{"LORE_TEST_LLM_KEY", "k"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_NE(reqs[0].body.find("REDACTED:"), std::string::npos);
  for (const Planted& s : AllPlanted()) {
    EXPECT_EQ(reqs[0].body.find(s.core), std::string::npos) << s.rule;
  }
  for (const char* canary : {"SPLIT-CANARY-1", "SPLIT-CANARY-2"}) {
    EXPECT_EQ(reqs[0].body.find(canary), std::string::npos);
  }
  ExpectNoLeak();
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
