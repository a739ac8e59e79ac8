// Black-box tests of `lore init codex|gemini|cursor|opencode`: each agent's
// files written, the person's own entries kept byte for byte, a second run
// changing nothing, malformed files refused with their line and nothing
// written, the user scope under HOME, and the local scope refused. The real
// CLIs read what is written in tests/agents/ (ctest agent_clis).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

const std::string kGuarded =
    "command -v lore >/dev/null 2>&1 || exit 0; exec lore hook session-start";

class InitAgentsTest : public ::testing::Test {
 protected:
  void SetUp() override { stdfs::create_directories(t_ / "project"); }
  std::string project() const { return t_ / "project"; }
  RunOptions Opts() const {
    RunOptions o = IsolatedOptions(t_.path(), "stores");
    o.cwd = project();
    return o;
  }
  RunResult Init(const std::string& agent, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"init", agent, "--project", project()};
    args.insert(args.end(), extra.begin(), extra.end());
    return Lore(args, Opts());
  }
  // Every file under the project and the home folder, with its bytes.
  std::map<std::string, std::string> Files() const {
    std::map<std::string, std::string> out;
    for (const char* root : {"project", "home"}) {
      if (!stdfs::exists(t_ / root)) continue;
      for (const auto& e : stdfs::recursive_directory_iterator(t_ / root)) {
        if (e.is_regular_file())
          out[stdfs::relative(e.path(), t_.path())] = t_.Read(stdfs::relative(e.path(), t_.path()));
      }
    }
    return out;
  }
  // Runs init twice: the second run is "up to date" and writes nothing.
  void Twice(const std::string& agent, std::vector<std::string> extra = {}) {
    RunResult first = Init(agent, extra);
    ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
    auto after = Files();
    RunResult second = Init(agent, extra);
    ASSERT_EQ(second.exit_code, 0) << second.err;
    EXPECT_NE(second.out.find("up to date"), std::string::npos) << second.out;
    EXPECT_EQ(Files(), after);
  }

  TempDir t_;
};

TEST_F(InitAgentsTest, CodexConfigKeepsEveryByteAndAppendsTheServer) {
  const std::string mine =
      "# my settings\nmodel = \"o4-mini\"  # keep this comment\n\n[mcp_servers.github]\n"
      "command = \"docker\"\nargs = [\"run\", \"-i\", \"ghcr.io/github/github-mcp-server\"]\n";
  t_.Write("project/.codex/config.toml", mine);
  Twice("codex");
  const std::string now = t_.Read("project/.codex/config.toml");
  EXPECT_EQ(now.rfind(mine, 0), 0u) << now;
  EXPECT_EQ(now.substr(mine.size()),
            "\n[mcp_servers.lore]\ncommand = \"lore\"\nargs = [\"mcp\"]\n");
  Json hooks = Json::parse(t_.Read("project/.codex/hooks.json"));
  EXPECT_EQ(hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"], kGuarded);
  EXPECT_EQ(hooks["hooks"]["SessionStart"][0]["hooks"][0]["timeout"], 10);
  EXPECT_EQ(hooks["hooks"].size(), 1u);
  bool backup = false;
  for (const auto& [path, bytes] : Files())
    backup |= path.find("config.toml.lore-backup-") != std::string::npos && bytes == mine;
  EXPECT_TRUE(backup);
}

TEST_F(InitAgentsTest, CodexMalformedOrInlineTablesAreRefused) {
  for (const auto& [text, line] : std::vector<std::pair<std::string, std::string>>{
           {"model = \"x\"\n[mcp_servers\ncommand = 1\n", "config.toml:2"},
           {"mcp_servers = 3\n", "config.toml:1"},
           {"mcp_servers = { github = { command = \"gh\" } }\n", "config.toml:1"}}) {
    t_.Write("project/.codex/config.toml", text);
    auto before = Files();
    RunResult r = Init("codex");
    EXPECT_EQ(r.exit_code, 1) << text;
    EXPECT_NE(r.err.find(line), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(Files(), before) << text;
  }
}

TEST_F(InitAgentsTest, GeminiSettingsGetTheHookInMillisecondsAndTheServer) {
  t_.Write("project/.gemini/settings.json",
           "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": "
           "\"x\"\n    }\n  }\n}\n");
  Twice("gemini");
  Json s = Json::parse(t_.Read("project/.gemini/settings.json"));
  EXPECT_EQ(s["theme"], "GitHub");
  EXPECT_EQ(s["mcpServers"]["other"]["command"], "x");
  EXPECT_EQ(s["mcpServers"]["lore"], Json::parse(R"({"command": "lore", "args": ["mcp"]})"));
  EXPECT_EQ(s["hooks"]["SessionStart"][0]["hooks"][0]["command"], kGuarded);
  EXPECT_EQ(s["hooks"]["SessionStart"][0]["hooks"][0]["timeout"], 10000);  // Gemini CLI counts ms
  t_.Write("project/.gemini/settings.json", "{\n  \"hooks\": []\n}\n");
  RunResult bad = Init("gemini");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("settings.json:2"), std::string::npos) << bad.err;
}

TEST_F(InitAgentsTest, CursorAndOpencodeGetTheServer) {
  Twice("cursor");
  EXPECT_EQ(Json::parse(t_.Read("project/.cursor/mcp.json"))["mcpServers"]["lore"]["args"][0],
            "mcp");
  t_.Write("project/opencode.json", "{\n  \"model\": \"anthropic/claude\",\n  \"mcp\": {}\n}\n");
  Twice("opencode");
  Json o = Json::parse(t_.Read("project/opencode.json"));
  EXPECT_EQ(o["model"], "anthropic/claude");
  EXPECT_FALSE(o.contains("$schema"));  // only a new file gets one
  EXPECT_EQ(o["mcp"]["lore"],
            Json::parse(R"({"type": "local", "command": ["lore", "mcp"], "enabled": true})"));
  t_.Write("project/opencode.json",
           "{\"mcp\": {\"lore\": {\"type\": \"local\", \"command\": [\"/opt/lore\", \"mcp\"]}}}");
  RunResult other = Init("opencode");
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(other.out.find("kept mcp server lore"), std::string::npos) << other.out;
  stdfs::remove(t_ / "project/opencode.json");
  ASSERT_EQ(Init("opencode").exit_code, 0);
  EXPECT_EQ(Json::parse(t_.Read("project/opencode.json"))["$schema"],
            "https://opencode.ai/config.json");
}

TEST_F(InitAgentsTest, UserScopeAndNoLocalScope) {
  Twice("codex", {"--scope", "user"});
  EXPECT_TRUE(stdfs::exists(t_ / "home/.codex/config.toml"));
  EXPECT_TRUE(stdfs::exists(t_ / "home/.codex/hooks.json"));
  EXPECT_FALSE(stdfs::exists(t_ / "project/.codex"));
  Twice("opencode", {"--scope", "user"});
  EXPECT_TRUE(stdfs::exists(t_ / "home/.config/opencode/opencode.json"));
  RunResult local = Init("gemini", {"--scope", "local"});
  EXPECT_EQ(local.exit_code, 2);
  EXPECT_NE(local.err.find("local scope is Claude Code's"), std::string::npos) << local.err;
  RunResult check = Lore({"init", "--check", "codex", "--project", project()}, Opts());
  EXPECT_NE(check.out.find("scope user: installed"), std::string::npos) << check.out;
  RunResult unknown = Init("vim");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("claude-code, codex, gemini, cursor, opencode"), std::string::npos)
      << unknown.err;
}

// Every file but lore's backups, with its bytes.
std::map<std::string, std::string> WithoutBackups(std::map<std::string, std::string> files) {
  for (auto it = files.begin(); it != files.end();) {
    it = it->first.find(".lore-backup-") != std::string::npos ? files.erase(it) : std::next(it);
  }
  return files;
}

// --remove takes out exactly what init added, for every agent: the person's
// files come back byte for byte, and what lore created alone goes.
TEST_F(InitAgentsTest, RemoveGivesEveryAgentsFilesBackByteForByte) {
  t_.Write("project/.codex/config.toml",
           "# mine\nmodel = \"o4-mini\"\n\n[mcp_servers.github]\ncommand = \"gh\"\n");
  t_.Write("project/.gemini/settings.json",
           "{\n  \"theme\": \"GitHub\",\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\n        "
           "\"hooks\": [\n"
           "          {\n            \"type\": \"command\",\n            \"command\": \"echo "
           "hi\"\n          }\n"
           "        ]\n      }\n    ]\n  },\n  \"mcpServers\": {\n    \"other\": {\n      "
           "\"command\": \"x\"\n    }\n  }\n}\n");
  t_.Write("project/.cursor/mcp.json",
           "{\n  \"mcpServers\": {\n    \"gh\": {\n      \"command\": \"gh\"\n    }\n  }\n}\n");
  t_.Write("project/opencode.json",
           "{\n  \"model\": \"anthropic/claude\",\n  \"big\": 12345678901234567890\n}\n");
  const auto before = Files();
  for (const std::string agent : {"codex", "gemini", "cursor", "opencode"}) {
    ASSERT_EQ(Init(agent).exit_code, 0) << agent;
  }
  ASSERT_NE(WithoutBackups(Files()), before);
  RunResult dry = Init("codex", {"--remove", "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("would update .codex/config.toml (mcp server lore)"), std::string::npos)
      << dry.out;
  EXPECT_NE(dry.out.find("would remove .codex/hooks.json (hook SessionStart)"), std::string::npos)
      << dry.out;
  for (const std::string agent : {"codex", "gemini", "cursor", "opencode"}) {
    RunResult r = Init(agent, {"--remove"});
    ASSERT_EQ(r.exit_code, 0) << agent << r.out << r.err;
    EXPECT_NE(r.out.find("--remove: scope project"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; backup "), std::string::npos) << r.out;
  }
  EXPECT_EQ(WithoutBackups(Files()), before);
  RunResult again = Init("gemini", {"--remove"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("nothing of lore's there"), std::string::npos) << again.out;
  // Files lore created alone go whole, in either scope.
  stdfs::remove_all(t_ / "project");
  stdfs::create_directories(t_ / "project");
  for (const std::string agent : {"codex", "gemini", "cursor", "opencode"}) {
    ASSERT_EQ(Init(agent).exit_code, 0) << agent;
    ASSERT_EQ(Init(agent, {"--scope", "user"}).exit_code, 0) << agent;
    ASSERT_EQ(Init(agent, {"--remove", "--scope", "project"}).exit_code, 0) << agent;
    ASSERT_EQ(Init(agent, {"--remove", "--scope", "user"}).exit_code, 0) << agent;
  }
  EXPECT_EQ(WithoutBackups(Files()), (std::map<std::string, std::string>{})) << Files().size();
}

// What lore did not write as it writes it is named and left.
TEST_F(InitAgentsTest, RemoveLeavesWhatThePersonChanged) {
  ASSERT_EQ(Init("codex").exit_code, 0);
  std::string toml = t_.Read("project/.codex/config.toml");
  toml += "env = { A = \"1\" }\n";  // a key of lore's table now
  t_.Write("project/.codex/config.toml", toml);
  t_.Write("project/opencode.json",
           "{\n  \"mcp\": {\n    \"lore\": {\n      \"type\": \"local\",\n"
           "      \"command\": [\"/opt/lore\", \"mcp\"]\n    }\n  }\n}\n");
  RunResult r = Init("codex", {"--remove"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(t_.Read("project/.codex/config.toml"), toml);
  EXPECT_NE(r.out.find("kept mcp server lore in .codex/config.toml"), std::string::npos) << r.out;
  EXPECT_FALSE(stdfs::exists(t_ / "project/.codex/hooks.json"));
  const std::string mine = t_.Read("project/opencode.json");
  RunResult o = Init("opencode", {"--remove"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("nothing of lore's there"), std::string::npos) << o.out;
  EXPECT_EQ(t_.Read("project/opencode.json"), mine);
}

// Codex and Gemini CLI ignore lore in a folder not trusted: init says how to
// trust it, --check checks it, and lore never writes the trust.
TEST_F(InitAgentsTest, CodexAndGeminiSayHowToTrustTheFolderAndCheckIt) {
  const std::string real = stdfs::canonical(project());
  RunResult codex = Init("codex");
  ASSERT_EQ(codex.exit_code, 0) << codex.err;
  EXPECT_NE(
      codex.out.find("Codex ignores lore's project entries (.codex/) until this folder is trusted"),
      std::string::npos)
      << codex.out;
  EXPECT_NE(codex.out.find("    [projects.\"" + real + "\"]\n    trust_level = \"trusted\"\n"),
            std::string::npos)
      << codex.out;
  EXPECT_FALSE(stdfs::exists(t_ / "home/.codex")) << "lore init wrote the trust";
  auto check = [&](const std::string& agent) {
    RunResult r = Lore({"init", "--check", agent, "--project", project(), "--json"}, Opts());
    return Json::parse(r.out);
  };
  RunResult text = Lore({"init", "--check", "codex", "--project", project()}, Opts());
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("untrusted folder: ~/.codex/config.toml trusts no folder"),
            std::string::npos)
      << text.out;
  EXPECT_NE(
      text.out.find("installed, but not read: Codex ignores lore in a folder it does not trust"),
      std::string::npos)
      << text.out;
  EXPECT_EQ(check("codex")["folder_trust"]["trusted"], false);
  t_.Write("home/.codex/config.toml", "[projects.\"" + real + "\"]\ntrust_level = \"untrusted\"\n");
  EXPECT_NE(check("codex")["folder_trust"]["detail"].get<std::string>().find(
                "trust_level = \"untrusted\""),
            std::string::npos);
  t_.Write("home/.codex/config.toml",
           "model = \"x\"\n\n[projects.\"" + real + "\"]\ntrust_level = \"trusted\"\n");
  Json trusted = check("codex");
  EXPECT_EQ(trusted["folder_trust"]["trusted"], true) << trusted.dump();
  RunResult quiet = Init("codex");
  EXPECT_EQ(quiet.out.find("trusted"), std::string::npos) << quiet.out;
  // The user scope needs no trust: Codex reads ~/.codex/ anywhere.
  RunResult user = Init("codex", {"--scope", "user"});
  EXPECT_EQ(user.out.find("trust"), std::string::npos) << user.out;

  RunResult gemini = Init("gemini");
  ASSERT_EQ(gemini.exit_code, 0) << gemini.err;
  EXPECT_NE(gemini.out.find("Gemini CLI ignores lore's MCP server until this folder is trusted"),
            std::string::npos)
      << gemini.out;
  EXPECT_NE(gemini.out.find("    \"" + real + "\": \"TRUST_FOLDER\"\n"), std::string::npos)
      << gemini.out;
  EXPECT_FALSE(stdfs::exists(t_ / "home/.gemini/trustedFolders.json"));
  EXPECT_EQ(check("gemini")["folder_trust"]["trusted"], false);
  // TRUST_PARENT names a path whose parent is trusted; the longest rule wins.
  t_.Write("home/.gemini/trustedFolders.json", "{\"" + real + "/x\": \"TRUST_PARENT\"}");
  EXPECT_EQ(check("gemini")["folder_trust"]["trusted"], true);
  t_.Write("home/.gemini/trustedFolders.json", "{\"" + stdfs::path(real).parent_path().string() +
                                                   "\": \"TRUST_FOLDER\", \"" + real +
                                                   "\": \"DO_NOT_TRUST\"}");
  Json refused = check("gemini");
  EXPECT_EQ(refused["folder_trust"]["trusted"], false);
  EXPECT_NE(refused["folder_trust"]["detail"].get<std::string>().find("DO_NOT_TRUST"),
            std::string::npos);
  // Folder trust turned off in Gemini CLI's user settings trusts every folder.
  t_.Write("home/.gemini/settings.json", "{\"security\": {\"folderTrust\": {\"enabled\": false}}}");
  EXPECT_FALSE(check("gemini").contains("folder_trust"));
  t_.Write("home/.gemini/trustedFolders.json", "{not json");
  RunResult broken = Lore({"init", "--check", "gemini", "--project", project()}, Opts());
  EXPECT_EQ(broken.out.find("untrusted"), std::string::npos) << broken.out;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
