// lore as a Claude Code plugin: the files under share/claude-code/ that come
// from the hook table are what the table makes today, and the manifests name
// this version. A failure prints the file as it should be.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lore/agent_setup/merge.h"
#include "lore/json/value.h"
#include "lore/version.h"

namespace lore::agent_setup {
namespace {

std::string Read(const std::string& rel) {
  std::ifstream in(std::string(LORE_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(AgentSetupPlugin, HooksFileIsTheHookTable) {
  EXPECT_EQ(Read("share/claude-code/hooks/hooks.json"), PluginHooksFile())
      << "share/claude-code/hooks/hooks.json should be exactly:\n"
      << PluginHooksFile();
}

TEST(AgentSetupPlugin, McpFileRunsLore) {
  EXPECT_EQ(Read("share/claude-code/.mcp.json"), PluginMcpFile())
      << "share/claude-code/.mcp.json should be exactly:\n"
      << PluginMcpFile();
}

TEST(AgentSetupPlugin, ManifestsNameThisVersion) {
  Json plugin = Json::parse(Read("share/claude-code/.claude-plugin/plugin.json"));
  EXPECT_EQ(plugin["name"], "lore");
  EXPECT_EQ(plugin["version"], kVersion);
  for (const char* market :
       {".claude-plugin/marketplace.json", "share/installed-marketplace.json"}) {
    Json m = Json::parse(Read(market));
    ASSERT_EQ(m["plugins"].size(), 1u) << market;
    EXPECT_EQ(m["plugins"][0]["name"], "lore") << market;
    EXPECT_EQ(m["plugins"][0]["version"], kVersion) << market;
  }
}

TEST(AgentSetupPlugin, HookCommandsDoNothingWithoutLore) {
  for (const HookSpec& spec : ClaudeCodeHooks()) {
    const std::string c = PluginHookCommand(spec);
    // A hook with a word tests the payload first (tests/e2e/init_test.cpp runs it).
    const std::string start = spec.word.empty()
                                  ? "command -v lore >/dev/null 2>&1 && exec lore hook "
                                  : "p=; while IFS= read -r l";
    EXPECT_EQ(c.rfind(start, 0), 0u) << c;
    EXPECT_EQ(c.substr(c.size() - 8), "; exit 0") << c;
  }
}

}  // namespace
}  // namespace lore::agent_setup
