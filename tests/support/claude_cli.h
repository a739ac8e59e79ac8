// The real Claude Code CLI for tests: $LORE_CLAUDE, else the pinned
// @anthropic-ai/claude-code that scripts/test.sh installs under tests/claude/.
// Header-only.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace lore::testing {

inline std::string ClaudeBinary() {
  if (const char* c = std::getenv("LORE_CLAUDE"); c && *c) return c;
  auto p = std::filesystem::path(LORE_SOURCE_DIR) / "tests/claude/node_modules/.bin/claude";
  return std::filesystem::exists(p) ? p.string() : "";
}

// What a headless claude needs to talk to a scripted server at `base_url`
// and nothing else.
inline std::map<std::string, std::optional<std::string>> ClaudeEnv(const std::string& base_url) {
  return {{"ANTHROPIC_BASE_URL", base_url},
          {"ANTHROPIC_API_KEY", "test-key"},
          {"DISABLE_AUTOUPDATER", "1"},
          {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"}};
}

}  // namespace lore::testing

// In a test's SetUp: skip without the CLI, except in CI where it is a failure.
#define LORE_REQUIRE_CLAUDE(binary)                                                             \
  do {                                                                                          \
    if ((binary).empty()) {                                                                     \
      if (std::getenv("CI") != nullptr) FAIL() << "tests/claude/node_modules is missing in CI"; \
      GTEST_SKIP() << "run 'npm ci' in tests/claude first (or set LORE_CLAUDE)";                \
    }                                                                                           \
  } while (0)
