// The three back ends of llm::Model (lore/llm/model.h). Private to lore-llm.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/json/field.h"
#include "lore/llm/model.h"

namespace lore::llm {

class OpenAiModel final : public Model {
 public:
  using Model::Model;
  std::string Where() const override;

 private:
  Result<Reply> Ask(const std::string& system, const std::vector<Turn>& turns,
                    const std::vector<Tool>& tools) override;
};

class AnthropicModel final : public Model {
 public:
  using Model::Model;
  std::string Where() const override;

 private:
  Result<Reply> Ask(const std::string& system, const std::vector<Turn>& turns,
                    const std::vector<Tool>& tools) override;
};

// `claude -p` with no tools at all: the text answer of one headless run whose
// prompt is the conversation (llm/claude_code.h runs it).
class ClaudeCodeModel final : public Model {
 public:
  using Model::Model;
  std::string Where() const override { return s_.claude_command + " -p"; }

 private:
  Result<Reply> Ask(const std::string& system, const std::vector<Turn>& turns,
                    const std::vector<Tool>& tools) override;
};

// A usage field's count (a missing or odd one: 0).
inline int64_t TokenCount(const Json& usage, const char* key) {
  return usage.is_object() ? json::Int(usage, key, 0).value_or(0) : 0;
}

// Checks that `body` is a chat completion and returns its first choice.
Result<Reply> ParseCompletion(std::string_view body, const std::string& url);
// Checks that `body` is a Messages API message and returns its text,
// tool_use blocks and usage.
Result<Reply> ParseMessage(std::string_view body, const std::string& url);

}  // namespace lore::llm
