#include "lore/agent_setup/merge.h"

#include <gtest/gtest.h>

#include "agent_setup/key_line.h"
#include "agent_setup/merge_common.h"
#include "lore/agent_setup/diff.h"
#include "lore/json/value.h"

namespace lore::agent_setup {
namespace {

Json Parsed(const std::string& text) { return Json::parse(text); }

size_t CountCommand(const Json& groups, const std::string& command) {
  size_t n = 0;
  for (const Json& g : groups) {
    for (const Json& h : g["hooks"]) n += h.value("command", "") == command;
  }
  return n;
}

TEST(AgentSetupMergeSettings, EmptyTextGetsEveryHook) {
  auto m = MergeSettings("", "/p/.claude/settings.json", ".claude/settings.json");
  ASSERT_TRUE(m) << m.error().Format();
  EXPECT_TRUE(m->changed);
  ASSERT_EQ(m->pieces.size(), ClaudeCodeHooks().size() + 1);  // and the permission
  for (const Piece& p : m->pieces) EXPECT_EQ(p.state, PieceState::kMissing) << p.name;
  EXPECT_EQ(m->pieces.back().name, "permission mcp__lore");
  EXPECT_EQ(m->doc["permissions"]["allow"], Json::array({"mcp__lore"}));
  const Json& hooks = m->doc["hooks"];
  for (const HookSpec& spec : ClaudeCodeHooks()) {
    const Json& groups = hooks[std::string(spec.event)];
    ASSERT_EQ(groups.size(), 1u) << spec.event;
    EXPECT_EQ(CountCommand(groups, HookCommand(spec)), 1u);
    EXPECT_EQ(groups[0].contains("matcher"), !spec.matcher.empty());
  }
  EXPECT_EQ(hooks["PreToolUse"][0]["matcher"], "Bash");
  EXPECT_EQ(hooks["Stop"][0]["hooks"][0]["command"],
            "command -v lore >/dev/null 2>&1 || exit 0; exec lore hook stop");
  EXPECT_EQ(hooks["SessionStart"][0]["hooks"][0]["timeout"], kHookTimeoutSeconds);
}

TEST(AgentSetupMergeSettings, KeepsOtherKeysHooksAndOrder) {
  const std::string text = R"js({
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}],
    "Notification": [{"hooks": [{"type": "command", "command": "notify"}]}]
  },
  "env": {
  "A" : "1"
}
})js";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m) << m.error().Format();
  std::vector<std::string> keys;
  for (auto it = m->doc.begin(); it != m->doc.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"permissions", "hooks", "env"}));
  Json before = Parsed(text);
  before["permissions"]["allow"].push_back("mcp__lore");  // lore's rule after the person's
  EXPECT_EQ(m->doc["permissions"], before["permissions"]);
  EXPECT_EQ(m->doc["env"], before["env"]);
  EXPECT_EQ(m->doc["hooks"]["Notification"], before["hooks"]["Notification"]);
  const Json& pre = m->doc["hooks"]["PreToolUse"];
  ASSERT_EQ(pre.size(), 2u);
  EXPECT_EQ(pre[0], before["hooks"]["PreToolUse"][0]);  // the person's group first, untouched
  EXPECT_EQ(pre[1]["matcher"], "Bash");
}

TEST(AgentSetupMergeSettings, PermissionIsAppendedToThePersonsRules) {
  const std::string text =
      R"js({"permissions": {"allow": ["Bash(ls:*)"], "deny": ["Read(.env)"]}})js";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m) << m.error().Format();
  EXPECT_EQ(m->doc["permissions"]["allow"], Json::array({"Bash(ls:*)", "mcp__lore"}));
  EXPECT_EQ(m->doc["permissions"]["deny"], Json::array({"Read(.env)"}));
  // The wildcard spelling counts as lore's rule: nothing is added.
  auto wild =
      MergeSettings(R"js({"permissions": {"allow": ["mcp__lore__*"]}})js", "s.json", "s.json");
  ASSERT_TRUE(wild);
  EXPECT_EQ(wild->pieces.back().state, PieceState::kInstalled);
  EXPECT_EQ(wild->doc["permissions"]["allow"].size(), 1u);
  // A shape Claude Code does not read is refused, naming the line.
  auto bad =
      MergeSettings("{\n  \"permissions\": {\"allow\": \"mcp__lore\"}\n}", "s.json", "s.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().what.find("permissions.allow"), std::string::npos);
  EXPECT_EQ(bad.error().line, 2);
}

TEST(AgentSetupMergeSettings, SecondMergeChangesNothing) {
  auto first = MergeSettings("", "s.json", "s.json");
  ASSERT_TRUE(first);
  std::string text = Render(first->doc);
  auto second = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->changed);
  for (const Piece& p : second->pieces) EXPECT_EQ(p.state, PieceState::kInstalled) << p.name;
  EXPECT_EQ(Render(second->doc), text);
}

TEST(AgentSetupMergeSettings, OldLoreIsReportedNotDuplicated) {
  const std::string text = R"({"hooks": {"SessionStart": [{"hooks": [
      {"type": "command", "command": "/opt/lore-0.1/bin/lore hook session-start"}]}]}})";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->pieces[0].name, "hook SessionStart");
  EXPECT_EQ(m->pieces[0].state, PieceState::kDifferent);
  EXPECT_NE(m->pieces[0].detail.find("/opt/lore-0.1/bin/lore"), std::string::npos);
  EXPECT_EQ(m->doc["hooks"]["SessionStart"].size(), 1u);
  EXPECT_EQ(CountCommand(m->doc["hooks"]["SessionStart"], "lore hook session-start"), 0u);
  EXPECT_TRUE(m->changed);  // the other four are added
}

TEST(AgentSetupMergeSettings, PreToolUseUnderAnotherMatcherIsDifferent) {
  const std::string guarded = HookCommand(ClaudeCodeHooks()[1]);
  const std::string text = R"({"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [
      {"type": "command", "command": )" +
                           Json(guarded).dump() + R"(}]}]}})";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->pieces[1].state, PieceState::kDifferent);
  EXPECT_EQ(m->doc["hooks"]["PreToolUse"].size(), 1u);
  const std::string star = R"({"hooks": {"PreToolUse": [{"matcher": "Edit|Bash", "hooks": [
      {"type": "command", "command": )" +
                           Json(guarded).dump() + R"(}]}]}})";
  auto s = MergeSettings(star, "s.json", "s.json");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pieces[1].state, PieceState::kDifferent) << "no if rule: started for every call";
  auto t = MergeSettings(Render(s->doc), "s.json", "s.json");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->pieces[1].state, PieceState::kInstalled);
  EXPECT_FALSE(t->changed);
}

// The audit hook as 20fd986 wrote it, its command guarded but without the `if`
// rule: Claude Code starts its shell for every shell call. lore init adds the
// rule in place, once; lore init --remove takes the hook out with or without it.
TEST(AgentSetupMergeSettings, TheAuditHookGetsItsIfRule) {
  const HookSpec& pre = ClaudeCodeHooks()[1];
  ASSERT_EQ(pre.if_rule, "Bash(*lore propose*)");
  const std::string text = R"({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": )" +
                           Json(HookCommand(pre)).dump() + R"(, "timeout": 10}]}]}})";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->changed);
  EXPECT_EQ(m->pieces[1].state, PieceState::kDifferent);
  EXPECT_NE(m->pieces[1].detail.find("starts for every shell call"), std::string::npos)
      << m->pieces[1].detail;
  const Json& groups = m->doc["hooks"]["PreToolUse"];
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups[0]["hooks"].size(), 1u);
  EXPECT_EQ(groups[0]["hooks"][0]["if"], "Bash(*lore propose*)");
  EXPECT_EQ(groups[0]["hooks"][0]["command"], HookCommand(pre));
  EXPECT_EQ(groups[0]["hooks"][0]["timeout"], 10);
  auto again = MergeSettings(Render(m->doc), "s.json", "s.json");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  EXPECT_EQ(again->pieces[1].state, PieceState::kInstalled);
  // Only the audit hook has a rule: the others are started for every call of their event.
  for (const HookSpec& spec : ClaudeCodeHooks()) {
    EXPECT_EQ(spec.if_rule.empty(), spec.event != "PreToolUse") << spec.event;
  }
  for (const std::string& doc : {text, Render(m->doc)}) {
    auto gone = UnmergeSettings(doc, "s.json", "s.json");
    ASSERT_TRUE(gone);
    EXPECT_FALSE(gone->doc.contains("hooks")) << doc;
  }
}

// A project set up by an earlier lore: the bare command fails on every event
// on a machine without lore, so it is replaced in place, once.
TEST(AgentSetupMergeSettings, TheEarlierUnguardedFormIsReplacedInPlace) {
  const std::string text = R"({"hooks": {"SessionStart": [{"hooks": [
      {"type": "command", "command": "lore hook session-start", "timeout": 10},
      {"type": "command", "command": "echo hi"}]}]}})";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->pieces[0].state, PieceState::kDifferent);
  EXPECT_NE(m->pieces[0].detail.find("earlier form"), std::string::npos);
  EXPECT_TRUE(m->changed);
  const Json& group = m->doc["hooks"]["SessionStart"];
  ASSERT_EQ(group.size(), 1u);
  EXPECT_EQ(group[0]["hooks"][0]["command"],
            "command -v lore >/dev/null 2>&1 || exit 0; exec lore hook session-start");
  EXPECT_EQ(group[0]["hooks"][1]["command"], "echo hi");
  auto again = MergeSettings(Render(m->doc), "s.json", "s.json");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  for (const Piece& p : again->pieces) EXPECT_EQ(p.state, PieceState::kInstalled) << p.name;
}

// A project set up before the audit hook tested its payload in the shell: the
// guarded form that started lore for every shell call is replaced in place,
// and `lore init --remove` takes out either form.
TEST(AgentSetupMergeSettings, TheAuditHookThatStartedLoreForEveryCallIsReplaced) {
  const HookSpec& pre = ClaudeCodeHooks()[1];
  ASSERT_EQ(pre.event, "PreToolUse");
  const std::string old = "command -v lore >/dev/null 2>&1 || exit 0; exec lore hook pre-tool-use";
  EXPECT_NE(HookCommand(pre), old);
  EXPECT_EQ(EarlierHookCommands(pre), (std::vector<std::string>{"lore hook pre-tool-use", old}));
  const std::string text = R"({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": ")" +
                           old + R"(", "timeout": 10}]}]}})";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->pieces[1].state, PieceState::kDifferent);
  EXPECT_NE(m->pieces[1].detail.find("starts lore for every call"), std::string::npos);
  const Json& groups = m->doc["hooks"]["PreToolUse"];
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0]["hooks"][0]["command"], HookCommand(pre));
  EXPECT_EQ(groups[0]["hooks"][0]["if"], "Bash(*lore propose*)");
  auto again = MergeSettings(Render(m->doc), "s.json", "s.json");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  for (const std::string& form : {old, HookCommand(pre)}) {
    const std::string one = R"({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": )" +
                            Json(form).dump() + R"(}]}]}})";
    auto gone = UnmergeSettings(one, "s.json", "s.json");
    ASSERT_TRUE(gone);
    EXPECT_FALSE(gone->doc.contains("hooks")) << form;
  }
}

// The local scope's MCP entry sits under projects["<path>"] of ~/.claude.json,
// beside everything else Claude Code keeps there.
TEST(AgentSetupMergeMcp, UnderAProjectOfClaudeJson) {
  const std::string text = R"({"numStartups": 3, "projects": {"/other": {"mcpServers": {}},
      "/work/p": {"allowedTools": []}}})";
  auto m = MergeMcp(text, "/h/.claude.json", "~/.claude.json", {"projects", "/work/p"});
  ASSERT_TRUE(m) << m.error().Format();
  EXPECT_TRUE(m->changed);
  EXPECT_EQ(m->doc["projects"]["/work/p"]["mcpServers"]["lore"]["command"], "lore");
  EXPECT_TRUE(m->doc["projects"]["/work/p"]["allowedTools"].is_array());
  EXPECT_TRUE(m->doc["projects"]["/other"]["mcpServers"].empty());
  EXPECT_EQ(m->doc["numStartups"], 3);
  auto fresh = MergeMcp("", "/h/.claude.json", "~/.claude.json", {"projects", "/new"});
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->doc["projects"]["/new"]["mcpServers"]["lore"]["args"][0], "mcp");
  auto again =
      MergeMcp(Render(m->doc), "/h/.claude.json", "~/.claude.json", {"projects", "/work/p"});
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  auto bad = MergeMcp(R"({"projects": {"/work/p": []}})", "/h/.claude.json", "~/.claude.json",
                      {"projects", "/work/p"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().line, 1);
  EXPECT_NE(bad.error().what.find("/work/p"), std::string::npos) << bad.error().Format();
}

TEST(AgentSetupMergeSettings, MalformedNamesFileLineAndRepair) {
  struct Case {
    std::string text;
    int64_t line;
    std::string what;
  };
  const std::vector<Case> cases = {
      {"{\n  \"a\": 1,\n  \"b\": \n}\n", 4, "not valid JSON"},
      {"[1, 2]\n", 1, "not a JSON object"},
      {"{\n  \"env\": {},\n  \"hooks\": []\n}\n", 3, "\"hooks\" is not an object"},
      {"{\n  \"hooks\": {\n    \"Stop\": {}\n  }\n}\n", 3, "hooks.Stop is not an array"},
      {"{\"hooks\": {\n\"SessionEnd\": [{\"hooks\": \"x\"}]}}", 2, "hooks.SessionEnd[0]"},
      {"{\"a\": 1, \"a\": 2}", 1, "duplicate key"},
  };
  for (const Case& c : cases) {
    auto m = MergeSettings(c.text, "/p/.claude/settings.json", ".claude/settings.json");
    ASSERT_FALSE(m) << c.text;
    EXPECT_EQ(m.error().path, "/p/.claude/settings.json");
    EXPECT_EQ(m.error().line, c.line) << c.text << ": " << m.error().Format();
    EXPECT_NE(m.error().Format().find(c.what), std::string::npos) << m.error().Format();
    EXPECT_NE(m.error().repair.find("nothing was changed"), std::string::npos);
  }
}

TEST(AgentSetupMergeMcp, AddsLoreKeepsOthers) {
  const std::string text = R"({"mcpServers": {"db": {"command": "db-mcp", "args": ["--ro"]}}})";
  auto m = MergeMcp(text, "m.json", "m.json");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->changed);
  EXPECT_EQ(m->doc["mcpServers"].begin().key(), "db");
  EXPECT_EQ(m->doc["mcpServers"]["db"], Parsed(text)["mcpServers"]["db"]);
  EXPECT_EQ(m->doc["mcpServers"]["lore"], Parsed(R"({"command": "lore", "args": ["mcp"]})"));
  auto again = MergeMcp(Render(m->doc), "m.json", "m.json");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  EXPECT_EQ(again->pieces[0].state, PieceState::kInstalled);
}

TEST(AgentSetupMergeMcp, CustomisedOrForeignLoreIsLeft) {
  auto repo =
      MergeMcp(R"({"mcpServers": {"lore": {"command": "lore", "args": ["mcp", "--repo", "x"]}}})",
               "m.json", "m.json");
  ASSERT_TRUE(repo);
  EXPECT_EQ(repo->pieces[0].state, PieceState::kInstalled);
  EXPECT_FALSE(repo->changed);
  auto other = MergeMcp(R"({"mcpServers": {"lore": {"command": "/old/lore", "args": ["mcp"]}}})",
                        "m.json", "m.json");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->pieces[0].state, PieceState::kDifferent);
  EXPECT_FALSE(other->changed);
  auto bad = MergeMcp("{\n\"mcpServers\": [1]\n}", "m.json", "m.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().line, 2);
}

TEST(AgentSetupRender, TwoSpacesAndTrailingNewline) {
  Json doc = Parsed(R"({"a": {"b": [1, "é"]}, "c": {}})");
  EXPECT_EQ(Render(doc),
            "{\n  \"a\": {\n    \"b\": [\n      1,\n      \"é\"\n    ]\n  },\n"
            "  \"c\": {}\n}\n");
}

TEST(AgentSetupRender, NumbersKeepTheirSpelling) {
  const std::string text =
      "{\n  \"big\": 12345678901234567890123,\n  \"neg\": -0,\n  \"e\": [\n    1E5,\n"
      "    1.50,\n    -0.0,\n    7\n  ],\n  \"s\": \"1E5 \\\" -0\",\n  \"n\": 2.5e-3\n}\n";
  auto m = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(m) << m.error().Format();
  const std::string out = Render(m->doc);
  EXPECT_EQ(out.substr(0, text.size() - 3), text.substr(0, text.size() - 3)) << out;
  EXPECT_EQ(RenderCompact(m->doc["e"]), "[1E5,1.50,-0.0,7]");
}

TEST(AgentSetupKeyLine, FindsNestedKeysThroughArrays) {
  const std::string text =
      "{\n \"x\": {\"hooks\": 1},\n \"hooks\": {\n  \"Stop\": [\n"
      "   {\"hooks\": []}]}}";
  EXPECT_EQ(LineOfKey(text, {"hooks"}), 3);
  EXPECT_EQ(LineOfKey(text, {"x", "hooks"}), 2);
  EXPECT_EQ(LineOfKey(text, {"hooks", "Stop"}), 4);
  EXPECT_EQ(LineOfKey(text, {"hooks", "Stop", "hooks"}), 5);
  EXPECT_EQ(LineOfKey(text, {"nope"}), 0);
}

TEST(AgentSetupDiff, ShowsOnlyTheChangedMiddle) {
  EXPECT_EQ(LineDiff("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(LineDiff("1\n2\n3\n4\n5\n", "1\n2\n3\nnew\n4\n5\n", 1),
            "@@ line 3 @@\n  3\n+ new\n  4\n");
  EXPECT_EQ(LineDiff("", "x\n"), "@@ line 1 @@\n+ x\n");
}

TEST(AgentSetupMergeCodex, AppendsOnceKeepingEveryByte) {
  const std::string mine =
      "model = \"o4\"\n[mcp_servers.gh]\ncommand = \"gh\"";  // no final newline
  auto m = MergeCodexConfig(mine, "c.toml", "c.toml");
  ASSERT_TRUE(m) << m.error().Format();
  ASSERT_TRUE(m->text);
  EXPECT_EQ(*m->text, mine + "\n\n[mcp_servers.lore]\ncommand = \"lore\"\nargs = [\"mcp\"]\n");
  auto again = MergeCodexConfig(*m->text, "c.toml", "c.toml");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  EXPECT_EQ(again->pieces[0].state, PieceState::kInstalled);
  auto other =
      MergeCodexConfig("[mcp_servers.lore]\ncommand = \"/opt/lore\"\nargs = [\"mcp\"]\n", "c", "c");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->pieces[0].state, PieceState::kDifferent);
  EXPECT_FALSE(other->changed);
  auto fresh = MergeCodexConfig("", "c", "c");
  ASSERT_TRUE(fresh);
  EXPECT_EQ(*fresh->text, "[mcp_servers.lore]\ncommand = \"lore\"\nargs = [\"mcp\"]\n");
  auto bad = MergeCodexConfig("a = 1\nb = \n", "c.toml", "c.toml");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().line, 2);
}

TEST(AgentSetupMergeOpencode, ServerAsOpencodeReadsIt) {
  auto m = MergeOpencode("", "o.json", "o.json");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->doc["$schema"], "https://opencode.ai/config.json");
  EXPECT_EQ(m->doc["mcp"]["lore"]["command"][1], "mcp");
  auto again = MergeOpencode(Render(m->doc), "o.json", "o.json");
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed);
  auto bad = MergeOpencode("{\n  \"mcp\": []\n}", "o.json", "o.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().line, 2);
}

}  // namespace
}  // namespace lore::agent_setup

namespace lore::agent_setup {
namespace {

// The inverses give the person's document back: merge then unmerge is the
// identity on every other key, rule, hook and server.
TEST(AgentSetupUnmerge, SettingsComeBackAsTheyWere) {
  const std::string text = Render(Json::parse(R"js({
  "permissions": {"allow": ["Bash(ls:*)", "mcp__lore__*"]},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]},
  "model": "opus"
})js"));
  auto merged = MergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(merged) << merged.error().Format();
  auto back = UnmergeSettings(Render(merged->doc), "s.json", "s.json");
  ASSERT_TRUE(back) << back.error().Format();
  EXPECT_TRUE(back->changed);
  EXPECT_EQ(Render(back->doc), text);  // the person's wildcard rule stays theirs
  // A file lore made alone comes back empty; one without lore is unchanged.
  auto alone =
      UnmergeSettings(Render(MergeSettings("", "s.json", "s.json")->doc), "s.json", "s.json");
  ASSERT_TRUE(alone);
  EXPECT_EQ(alone->doc, Json::object());
  for (const Piece& p : alone->pieces) EXPECT_EQ(p.state, PieceState::kInstalled) << p.name;
  auto none = UnmergeSettings(text, "s.json", "s.json");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->changed);
  EXPECT_EQ(Render(none->doc), text);
}

TEST(AgentSetupUnmerge, McpKeepsOtherServersAndAnotherLore) {
  const std::string text =
      "{\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"gh\"\n    }\n  }\n}\n";
  auto merged = MergeMcp(text, "m.json", "m.json");
  ASSERT_TRUE(merged);
  auto back = UnmergeMcp(Render(merged->doc), "m.json", "m.json");
  ASSERT_TRUE(back);
  EXPECT_EQ(Render(back->doc), text);
  const std::string other =
      R"({"mcpServers": {"lore": {"command": "/opt/lore", "args": ["mcp"]}}})";
  auto kept = UnmergeMcp(other, "m.json", "m.json");
  ASSERT_TRUE(kept);
  EXPECT_FALSE(kept->changed);
  EXPECT_EQ(kept->pieces[0].state, PieceState::kDifferent);
  // Under a project of ~/.claude.json: the project's entry lore made goes, "projects" stays.
  auto local = MergeMcp(R"({"projects": {}})", "c.json", "c.json", {"projects", "/p"});
  ASSERT_TRUE(local);
  auto undone = UnmergeMcp(Render(local->doc), "c.json", "c.json", {"projects", "/p"});
  ASSERT_TRUE(undone);
  EXPECT_EQ(undone->doc, Json::parse(R"({"projects": {}})"));
}

}  // namespace
}  // namespace lore::agent_setup
