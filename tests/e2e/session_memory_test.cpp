// Black-box tests of what lore keeps from a session (issue 24): the session
// log, the episodes, outcomes and decisions Phase 1 reads off both sides of
// the conversation, the briefing Phase 2 writes, recurring failures as
// gotchas, the hooks' consolidation at session end, visible failures, and a
// decision fed by 500 sessions. Each transcript is written here for one rule.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <thread>

#include "support/extract_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::json;

// Claude Code transcript lines, in its shape (docs/extract.md).
class Script {
 public:
  explicit Script(std::string session, std::string day = "2025-03-04")
      : session_(std::move(session)), day_(std::move(day)) {}
  Script& Person(const std::string& text) {
    return Line("user", Json{{"role", "user"}, {"content", text}});
  }
  Script& Agent(const std::string& text) {
    return Line("assistant", Json{{"role", "assistant"},
                                  {"content", Json::array({{{"type", "text"}, {"text", text}}})}});
  }
  Script& Call(const std::string& id, const std::string& tool, const Json& input) {
    return Line(
        "assistant",
        Json{
            {"role", "assistant"},
            {"content",
             Json::array({{{"type", "tool_use"}, {"id", id}, {"name", tool}, {"input", input}}})}});
  }
  Script& Bash(const std::string& id, const std::string& command) {
    return Call(id, "Bash", {{"command", command}, {"description", "run " + id}});
  }
  Script& Result(const std::string& id, const std::string& text, bool error = false) {
    return Line("user", Json{{"role", "user"},
                             {"content", Json::array({{{"type", "tool_result"},
                                                       {"tool_use_id", id},
                                                       {"content", text},
                                                       {"is_error", error}}})}});
  }
  Script& Compaction(const std::string& summary) {
    Json j = Base("user");
    j["isCompactSummary"] = true;
    j["message"] = {{"role", "user"},
                    {"content",
                     "This session is being continued from a previous conversation "
                     "that ran out of context. The conversation is summarized below:\n" +
                         summary}};
    text_ += j.dump() + "\n";
    return *this;
  }
  const std::string& text() const { return text_; }
  int lines() const { return n_; }

 private:
  Json Base(const std::string& type) {
    ++n_;
    char ts[64];
    std::snprintf(ts, sizeof ts, "%sT10:%02d:%02d.000Z", day_.c_str(), n_ / 60, n_ % 60);
    return Json{{"type", type},
                {"sessionId", session_},
                {"timestamp", ts},
                {"cwd", "/repo"},
                {"gitBranch", "main"},
                {"isSidechain", false},
                {"uuid", "u" + std::to_string(n_)}};
  }
  Script& Line(const std::string& type, Json message) {
    Json j = Base(type);
    j["message"] = std::move(message);
    text_ += j.dump() + "\n";
    return *this;
  }
  std::string session_, day_, text_;
  int n_ = 0;
};

// The session of one rule each: a failure with its diagnosis and fix, a commit,
// "nothing to commit", numbered options answered with "2", a rejected call, an
// interruption, a reminder inside a tool result, colours, a compaction and the
// agent's closing summary.
Script RulesSession() {
  Script t("sess-rules");
  t.Person("Implement PROJ-7")
      .Agent("I'll start with the tests.")
      .Bash("t1", "npm test")
      .Result("t1",
              "Exit code 1\n\x1b[31mFAIL\x1b[0m src/app.test.js\nError: Cannot find module "
              "'./config'",
              true)
      .Agent("The test imports ./config, which was never committed. I'll add it.")
      .Call("t2", "Write", {{"file_path", "/repo/src/config.js"}, {"content", "module.exports={}"}})
      .Result("t2", "File created successfully at: /repo/src/config.js")
      .Bash("t3", "npm test")
      .Result("t3", "Tests: 4 passed, 4 total")
      .Bash("t4", "git commit -am 'Add the config module'")
      .Result("t4", "[main 1a2b3c4] Add the config module\n 1 file changed")
      .Bash("t5", "git commit -am again")
      .Result("t5", "Exit code 1\nOn branch main\nnothing to commit, working tree clean", true)
      .Agent(
          "How should I push?\n1. **Rebase** onto origin first\n2. **Force push** the "
          "branch\n3. **Skip** pushing")
      .Person("2")
      .Bash("t6", "git push --force")
      .Result("t6",
              "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. "
              "if it was a file edit, the new_string was NOT written to the file). STOP what you "
              "are doing and wait for the user to tell you how to proceed.",
              true)
      .Person("[Request interrupted by user for tool use]")
      .Bash("t7", "tail -n 1 app.log")
      .Result("t7", "<system-reminder>Keep going.</system-reminder>\nserver started on 8080")
      .Compaction("The config module was added and committed.")
      .Agent(
          "Done: the config module is added, the tests pass, and it is committed as 1a2b3c4. "
          "Left to do: push, once you decide how.");
  return t;
}

class SessionMemoryTest : public ExtractFixture {
 protected:
  RunResult Consolidate() {
    return Lore({"consolidate", kRepo, "--flush", "--foreground"}, Opts());
  }
  std::string SessionLog(const std::string& session) const {
    return Read("sessions/" + session + ".jsonl");
  }
  std::string Summary() const { return Read("memory/summary.md"); }
  std::vector<std::string> Gotchas() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : stdfs::directory_iterator(Path("knowledge"), ec)) {
      std::string name = e.path().filename().string();
      if (name.rfind("gotcha-", 0) == 0) out.push_back(name);
    }
    return out;
  }
};

TEST_F(SessionMemoryTest, EveryRuleOfASessionReachesTheLogTheEntryAndTheBriefing) {
  Script t = RulesSession();
  WriteTranscript(t.text());
  Json line = Line(Extract());
  ASSERT_EQ(line["status"], "staged") << line.dump();
  EXPECT_EQ(line["range"], Json::array({1, t.lines()}));

  // The session log: both sides of the conversation, clean.
  std::string log = SessionLog("sess-rules");
  for (const char* kept :
       {"Implement PROJ-7", R"("text":"2")", "The test imports ./config", "Cannot find module",
        R"("status":"failed")", R"("status":"rejected")", R"("turn":"interrupt")",
        "The config module was added and committed.", "server started on 8080",
        R"("input":"npm test")", "Left to do: push",
        R"("change":"module.exports={}")"}) {  // what the agent wrote is its own action
    EXPECT_NE(log.find(kept), std::string::npos) << kept << "\n" << log;
  }
  for (const char* gone :
       {"\x1b", "\\u001b", "doesn't want to proceed", "STOP what you", "system-reminder",
        "Request interrupted", "Keep going", "File created successfully", "summarized below"}) {
    EXPECT_EQ(log.find(gone), std::string::npos) << gone << "\n" << log;
  }

  // The staged entry: an episode with its cause and fix, outcomes, decisions.
  Json e = Entry(line["staged_id"]);
  ASSERT_EQ(e["attempts"].size(), 1u) << e.dump(1);
  EXPECT_EQ(e["attempts"][0]["action"], "npm test");
  EXPECT_EQ(e["attempts"][0]["cause"], "The test imports ./config, which was never committed.");
  EXPECT_EQ(e["attempts"][0]["fix"], "npm test");
  EXPECT_EQ(e["attempts"][0]["files"], Json::array({"/repo/src/config.js"}));
  EXPECT_EQ(e["attempts"][0]["lines"], Json::array({3, 9}));
  EXPECT_EQ(e["attempts"][0]["at"], "2025-03-04T10:00:04Z");  // the session's own time
  EXPECT_EQ(e["started_at"], "2025-03-04T10:00:01Z");
  int commits = 0;
  for (const auto& o : e["outcomes"]) {
    if (o["kind"] != "commit") continue;
    ++commits;  // "again" committed nothing
    EXPECT_EQ(o["what"], "Add the config module");
    EXPECT_EQ(o["ok"], true);
  }
  EXPECT_EQ(commits, 1) << e["outcomes"].dump();
  std::string decisions = e["decisions"].dump();
  EXPECT_NE(decisions.find(R"("chosen":"Force push")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find(R"("chosen":"Declined: run t6")"), std::string::npos) << decisions;

  // The briefing, and the decision dated by the session.
  ASSERT_EQ(Consolidate().exit_code, 0);
  std::string summary = Summary();
  for (const char* kept : {"## Last sessions", "Implement PROJ-7", "Left to do: push",
                           "Committed: \"Add the config module\" (1a2b3c4)", "## Lessons",
                           "Cannot find module", "Force push"}) {
    EXPECT_NE(summary.find(kept), std::string::npos) << kept << "\n" << summary;
  }
  EXPECT_NE(summary.find("updated_at: 2025-03-04T10:00:"), std::string::npos) << summary;
  bool dated = false;
  for (const auto& [rel, text] : Records()) {
    if (rel.rfind("memory/decisions/", 0) == 0 &&
        text.find("created_at: 2025-03-04T10:00:") != std::string::npos)
      dated = true;
  }
  EXPECT_TRUE(dated);
  EXPECT_EQ(Lore({"lint", kRepo}, Opts()).exit_code, 0);
}

TEST_F(SessionMemoryTest, TheContextIsTheBriefingAndAnIndexNeverFailedCommands) {
  WriteTranscript(RulesSession().text());
  Line(Extract());
  ASSERT_EQ(Consolidate().exit_code, 0);
  // The hook locates the store of the payload's cwd: here, the remote itself.
  RunOptions at =
      Opts(std::string(R"({"session_id":"next","source":"startup","cwd":")") + kRepo + "\"}");
  auto r = Lore({"hook", "session-start"}, at);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out, nullptr, false);
  std::string ctx = j["hookSpecificOutput"]["additionalContext"].get<std::string>();
  EXPECT_LE(ctx.size(), 8000u);
  EXPECT_NE(ctx.find("Implement PROJ-7"), std::string::npos) << ctx;
  EXPECT_NE(ctx.find("More in lore's memory:"), std::string::npos) << ctx;
  EXPECT_NE(ctx.find("1 session log"), std::string::npos) << ctx;
  EXPECT_NE(ctx.find("`search` tool"), std::string::npos) << ctx;
  for (const char* gone : {"Tried without success", "STOP", "<!-- lore:briefing"}) {
    EXPECT_EQ(ctx.find(gone), std::string::npos) << gone << "\n" << ctx;
  }
}

// Every file of the store's memory, knowledge and session logs, by path.
std::map<std::string, std::string> Snapshot(const std::string& store) {
  std::map<std::string, std::string> out;
  for (const char* folder : {"memory", "knowledge", "sessions", "okf"}) {
    std::error_code ec;
    for (const auto& e : stdfs::recursive_directory_iterator(store + "/" + folder, ec)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      out[stdfs::relative(e.path(), store).string()] =
          std::string(std::istreambuf_iterator<char>(in), {});
    }
  }
  return out;
}

TEST_F(SessionMemoryTest, TheSameSessionsReplayedTwiceGiveByteIdenticalMemory) {
  Script other("sess-other", "2025-03-05");
  other.Person("Fix the flaky upload test")
      .Bash("u1", "pytest tests/test_upload.py")
      .Result("u1", "FAILED tests/test_upload.py::test_retry - TimeoutError\n1 failed", true)
      .Agent("The retry waits on the real clock; I'll inject a fake one.")
      .Call("u2", "Edit",
            {{"file_path", "/repo/src/upload.py"}, {"old_string", "a"}, {"new_string", "b"}})
      .Result("u2", "The file /repo/src/upload.py has been updated.")
      .Bash("u3", "python -m pytest -q tests/")
      .Result("u3", "12 passed")
      .Agent("Fixed: the upload retry takes an injected clock; all 12 tests pass.");
  auto replay = [&] {
    const Script rules = RulesSession();
    for (const Script* s : {&rules, static_cast<const Script*>(&other)}) {
      WriteTranscript(s->text());
      Line(Extract());
      EXPECT_EQ(Consolidate().exit_code, 0);
    }
    auto r = Lore(
        {"hook", "session-start"},
        Opts(std::string(R"({"session_id":"next","source":"startup","cwd":")") + kRepo + "\"}"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto files = Snapshot(Path(""));
    files["(session-start context)"] = r.out;
    return files;
  };
  const auto first = replay();
  stdfs::remove_all(t_ / "home/.lore");
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  const auto second = replay();
  ASSERT_GT(first.size(), 3u);
  for (const auto& [path, bytes] : first) {
    auto it = second.find(path);
    ASSERT_NE(it, second.end()) << path << " is missing from the second replay";
    EXPECT_EQ(bytes, it->second) << path << " differs between two replays";
  }
  EXPECT_EQ(first.size(), second.size());
}

TEST_F(SessionMemoryTest, TheSessionLogIsBoundedAndRedacted) {
  Script t("sess-big");
  std::string file(2 << 20, 'x');
  t.Person("Read the dump. Our key is AKIAIOSFODNN7EXAMPLE <private>larch-otter-kettle</private>.")
      .Call("r1", "Read", {{"file_path", "/repo/dump.txt"}})
      .Result("r1", file)
      .Bash("b1", "cat dump.txt")
      .Result("b1", file)
      .Agent("The dump is two megabytes of x.");
  WriteTranscript(t.text());
  Json line = Line(Extract());
  std::string log = SessionLog("sess-big");
  EXPECT_LE(log.size(), std::max<size_t>(16 * 1024, t.text().size() * 15 / 100));
  EXPECT_LT(log.size(), 8 * 1024u) << "no output kept whole";
  EXPECT_EQ(log.find("AKIAIOSFODNN7EXAMPLE"), std::string::npos);
  EXPECT_EQ(log.find("larch-otter"), std::string::npos);
  EXPECT_NE(log.find("[REDACTED:aws-access-key]"), std::string::npos) << log;
  EXPECT_EQ(line["session_log"]["events"], 6);
}

TEST_F(SessionMemoryTest, ARecurringErrorBecomesOneGotchaPage) {
  auto session = [&](const std::string& id, const std::string& day, const std::string& path) {
    Script t(id, day);
    t.Person("Build the docs")
        .Bash("a", "make docs")
        .Result("a", "Exit code 2\nmake: *** No rule to make target '" + path + "/index.md'. Stop.",
                true)
        .Agent("The docs folder moved; the Makefile still names the old one.")
        .Call("e", "Edit", {{"file_path", "/repo/Makefile"}})
        .Result("e", "The file was updated")
        .Bash("b", "make docs")
        .Result("b", "built 12 pages");
    t_.Write(id + ".jsonl", t.text());
    auto r = Lore({"extract", kRepo, "--transcript", t_ / (id + ".jsonl")}, Opts());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(Consolidate().exit_code, 0);
  };
  session("s-one", "2025-03-01", "/home/a/docs");
  EXPECT_TRUE(Gotchas().empty()) << "seen once: not yet a gotcha";
  session("s-two", "2025-03-05", "/home/b/site/docs");
  auto pages = Gotchas();
  ASSERT_EQ(pages.size(), 1u);
  std::string page = Read("knowledge/" + pages[0]);
  EXPECT_NE(page.find("kind: gotcha"), std::string::npos) << page;
  EXPECT_NE(page.find("No rule to make target"), std::string::npos) << page;
  EXPECT_NE(page.find("The docs folder moved"), std::string::npos) << page;
  EXPECT_NE(page.find("What worked: `make docs`"), std::string::npos) << page;
  EXPECT_NE(page.find("session s-one"), std::string::npos) << page;
  EXPECT_NE(page.find("session s-two"), std::string::npos) << page;
  session("s-three", "2025-03-09", "/home/c/docs");
  EXPECT_EQ(Gotchas().size(), 1u);
  EXPECT_NE(Read("knowledge/" + pages[0]).find("session s-three"), std::string::npos);
  EXPECT_NE(Summary().find("knowledge/" + pages[0]), std::string::npos) << Summary();
  EXPECT_EQ(Lore({"lint", kRepo}, Opts()).exit_code, 0);
}

TEST_F(SessionMemoryTest, TheBriefingStaysWithinItsBudgetAndIsRewrittenNotAppended) {
  for (int i = 0; i < 14; ++i) {
    std::string id = "s" + std::to_string(i);
    Script t(id, "2025-03-" + std::string(i < 9 ? "0" : "") + std::to_string(i + 1));
    for (int k = 0; k < 6; ++k) {
      t.Person("Request " + std::to_string(k) + " of session " + id + ": " + std::string(300, 'w'))
          .Agent("Report " + std::to_string(k) + ": " + std::string(700, 'r'));
    }
    t_.Write(id + ".jsonl", t.text());
    ASSERT_EQ(Lore({"extract", kRepo, "--transcript", t_ / (id + ".jsonl")}, Opts()).exit_code, 0);
    if (i % 3 == 0) ASSERT_EQ(Consolidate().exit_code, 0);
  }
  ASSERT_EQ(Consolidate().exit_code, 0);
  std::string summary = Summary();
  size_t body = summary.size() - summary.find("\n---\n") - 5;
  EXPECT_LE(body, 6000u + 200);  // the budget, in code points; these are ASCII
  EXPECT_EQ(std::count(summary.begin(), summary.end(), '#') > 0, true);
  EXPECT_NE(summary.find("session s13"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("<!-- lore:briefing -->"), summary.rfind("<!-- lore:briefing -->"));
  // The same store rebuilt from its session logs briefs the same way.
  std::string before = summary;
  auto rebuilt = Lore({"extract", kRepo, "--rebuild"}, Opts());
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  Json r = Json::parse(rebuilt.out);
  EXPECT_EQ(r["sessions"], 14);
  EXPECT_EQ(r["staged"], 14);
  ASSERT_EQ(Consolidate().exit_code, 0);
  EXPECT_EQ(Summary().substr(Summary().find("\n---\n")), before.substr(before.find("\n---\n")));
}

TEST_F(SessionMemoryTest, ADecisionFedByFiveHundredSessionsKeepsWithinTheLinter) {
  Write("config.toml", "[memory.staging]\nthreshold_files = 100000\n");
  for (int i = 0; i < 500; ++i) {
    nlohmann::ordered_json j = {
        {"source", {{"session_id", "s" + std::to_string(i)}, {"range", {1, 9}}}},
        {"decisions",
         {{{"options", {"SQLite", "Postgres"}},
           {"chosen", "SQLite"},
           {"rationale", "reason number " + std::to_string(i) + " " + std::string(120, 'z')}}}},
        {"discussions", nlohmann::ordered_json::array()},
        {"attempts", nlohmann::ordered_json::array()},
        {"requests",
         {{{"intent", "Keep the cache small"},
           {"summary", "Keep the cache small, take " + std::to_string(i)}}}}};
    // Written as `lore stage` writes them (500 processes would cost the test
    // seconds): staging/<uuidv7>.json, in order.
    char id[40];
    std::snprintf(id, sizeof id, "%08x-%04x-7%03x-8%03x-%012x", 0x0190a000u, 0u,
                  static_cast<unsigned>(i), 0u, static_cast<unsigned>(i));
    Write(std::string("staging/") + id + ".json", j.dump() + "\n");
    if (i % 100 == 99) {
      auto c = Consolidate();
      ASSERT_EQ(c.exit_code, 0) << i << ": " << c.out << c.err;
    }
  }
  EXPECT_TRUE(Staged().empty());
  auto lint = Lore({"lint", kRepo, "--json"}, Opts());
  EXPECT_EQ(lint.exit_code, 0) << lint.out;
  for (const auto& [rel, text] : Records()) {
    size_t body = text.size() - text.find("\n---\n", 4);
    EXPECT_LE(body, 8000u) << rel;
    // Every session stays a source: nothing is lost, the body only keeps the latest reasons.
    if (rel.rfind("memory/decisions/", 0) == 0) {
      EXPECT_NE(text.find("session_id: s0\n"), std::string::npos) << rel;
      EXPECT_NE(text.find("session_id: s499\n"), std::string::npos) << rel;
      EXPECT_NE(text.find("reason number 499"), std::string::npos) << rel;
      EXPECT_EQ(text.find("reason number 0 "), std::string::npos) << rel;
    }
  }
}

TEST_F(SessionMemoryTest, AFailedBackgroundRunIsVisible) {
  // An extract that fails leaves a record: status and the next context say so.
  t_.Write("dir.jsonl/x", "");
  auto bad =
      Lore({"extract", kRepo, "--transcript", t_ / "dir.jsonl", "--session", "s-bad"}, Opts());
  EXPECT_EQ(bad.exit_code, 1);
  std::string ctx =
      Lore({"hook", "session-start"},
           Opts(std::string(R"({"session_id":"n","source":"startup","cwd":")") + kRepo + "\"}"))
          .out;
  EXPECT_NE(ctx.find("memory may be stale: extracting session s-bad failed"), std::string::npos)
      << ctx;
  auto told = Lore({"status", kRepo}, Opts());
  EXPECT_EQ(told.exit_code, 0) << told.err;
  EXPECT_NE(told.out.find("memory may be stale: extracting session s-bad failed at "),
            std::string::npos)
      << told.out;
  auto told_json = nlohmann::json::parse(Lore({"status", kRepo, "--json"}, Opts()).out);
  EXPECT_EQ(told_json["failed_extract"]["session_id"], "s-bad") << told_json.dump();
  EXPECT_FALSE(told_json["failed_extract"]["error"].get<std::string>().empty());
  // The next extract that succeeds clears it.
  t_.Write("ok.jsonl",
           R"({"type":"user","sessionId":"s-ok","message":{"role":"user","content":"hello there"}})"
           "\n");
  ASSERT_EQ(Lore({"extract", kRepo, "--transcript", t_ / "ok.jsonl", "--session", "s-ok"}, Opts())
                .exit_code,
            0);
  EXPECT_TRUE(nlohmann::json::parse(Lore({"status", kRepo, "--json"}, Opts()).out)["failed_extract"]
                  .is_null());
  // A consolidation that fails (a decision it must update does not parse).
  ASSERT_EQ(
      Lore({"stage", kRepo}, Opts(ConsolidateFixture::Entry("s1", "sqlite", "sqlite b"))).exit_code,
      0);
  Write("memory/decisions/sqlite-a-or-sqlite-b.md", "---\ncreated_at: [\n---\nbroken\n");
  EXPECT_NE(Consolidate().exit_code, 0);
  auto status = Lore({"status", kRepo, "--json"}, Opts());
  EXPECT_NE(status.out.find(R"("outcome":"failed")"), std::string::npos) << status.out;
  ctx = Lore({"hook", "session-start"},
             Opts(std::string(R"({"session_id":"n","source":"startup","cwd":")") + kRepo + "\"}"))
            .out;
  EXPECT_NE(ctx.find("memory may be stale: the last consolidation failed"), std::string::npos)
      << ctx;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
