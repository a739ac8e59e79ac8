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

const std::string kGuarded = "command -v lore >/dev/null 2>&1 || exit 0; exec lore hook session-start";

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
        if (e.is_regular_file()) out[stdfs::relative(e.path(), t_.path())] = t_.Read(stdfs::relative(e.path(), t_.path()));
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
  EXPECT_EQ(now.substr(mine.size()), "\n[mcp_servers.lore]\ncommand = \"lore\"\nargs = [\"mcp\"]\n");
  Json hooks = Json::parse(t_.Read("project/.codex/hooks.json"));
  EXPECT_EQ(hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"], kGuarded);
  EXPECT_EQ(hooks["hooks"]["SessionStart"][0]["hooks"][0]["timeout"], 10);
  EXPECT_EQ(hooks["hooks"].size(), 1u);
  bool backup = false;
  for (const auto& [path, bytes] : Files()) backup |= path.find("config.toml.lore-backup-") != std::string::npos && bytes == mine;
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
           "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"x\"\n    }\n  }\n}\n");
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
  EXPECT_EQ(Json::parse(t_.Read("project/.cursor/mcp.json"))["mcpServers"]["lore"]["args"][0], "mcp");
  t_.Write("project/opencode.json", "{\n  \"model\": \"anthropic/claude\",\n  \"mcp\": {}\n}\n");
  Twice("opencode");
  Json o = Json::parse(t_.Read("project/opencode.json"));
  EXPECT_EQ(o["model"], "anthropic/claude");
  EXPECT_FALSE(o.contains("$schema"));  // only a new file gets one
  EXPECT_EQ(o["mcp"]["lore"], Json::parse(R"({"type": "local", "command": ["lore", "mcp"], "enabled": true})"));
  t_.Write("project/opencode.json", "{\"mcp\": {\"lore\": {\"type\": \"local\", \"command\": [\"/opt/lore\", \"mcp\"]}}}");
  RunResult other = Init("opencode");
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(other.out.find("kept mcp server lore"), std::string::npos) << other.out;
  stdfs::remove(t_ / "project/opencode.json");
  ASSERT_EQ(Init("opencode").exit_code, 0);
  EXPECT_EQ(Json::parse(t_.Read("project/opencode.json"))["$schema"], "https://opencode.ai/config.json");
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
  EXPECT_NE(unknown.err.find("claude-code, codex, gemini, cursor, opencode"), std::string::npos) << unknown.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
