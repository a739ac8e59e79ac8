// The model back ends of the LLM engines, behind one interface
// (docs/consolidation.md, "Model back ends"):
//   - openai: chat completions (OpenAI, Ollama, LM Studio, vLLM, OpenRouter);
//   - anthropic: the Messages API with native tool use;
//   - claude-code: the user's own `claude -p` (their login, no key), one
//     process per request here; the consolidation's agentic run through it is
//     llm/claude_code.h's engine.
// A conversation is kept in one neutral shape and each back end translates
// it. Every request's usage (input, output and cache tokens) is added up, and
// a request that takes the run past its token budget ends it with an error.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/consolidate/settings.h"
#include "lore/error.h"
#include "lore/json/value.h"
#include "lore/store/store.h"

namespace lore::llm {

struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // a JSON object, as text
};

struct ToolResult {
  std::string call_id;
  std::string content;
};

struct Turn {
  enum class Role { kUser, kAssistant, kTool };
  Role role = Role::kUser;
  std::string text;                 // kUser, kAssistant
  std::vector<ToolCall> calls;      // kAssistant
  std::vector<ToolResult> results;  // kTool: the answers to the previous turn's calls
};

struct Tool {
  std::string name;
  std::string description;
  Json parameters;  // a JSON Schema object
};

struct Usage {
  int64_t input = 0;   // input tokens, cache reads and writes included
  int64_t output = 0;  // output tokens
  int64_t total() const { return input + output; }
  Usage& operator+=(const Usage& o) {
    input += o.input;
    output += o.output;
    return *this;
  }
};

struct Reply {
  std::string text;
  std::vector<ToolCall> calls;
  Usage usage;
};

// Where, with what and within what a model is asked.
struct ModelSettings {
  std::string provider;  // "openai", "anthropic" or "claude-code"
  std::string base_url;
  std::string model;        // empty: the back end's own default (claude-code only)
  std::string api_key;      // empty: none sent
  std::string api_key_env;  // its variable's name, for error messages
  std::string claude_command = "claude";
  std::string config_path;  // config.toml, named in errors
  int64_t max_output_tokens = 8192;
  std::chrono::milliseconds timeout{120000};  // one request
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::seconds run_timeout{1800};  // one claude-code process
  int max_retries = 3;
  std::chrono::milliseconds backoff{1000};  // first wait; doubled each retry
  int64_t max_tokens_per_run = 0;           // 0: no limit
  int64_t max_tokens_per_day = 0;           // 0: no limit
  int64_t day_tokens_before = 0;            // what the day's earlier runs used
};

// The error that stops a run which used `run` tokens so far, when it is past
// the run's or the day's budget; nullopt while within both.
std::optional<Error> BudgetError(const ModelSettings& s, const Usage& run);

class Model {
 public:
  explicit Model(ModelSettings settings) : s_(std::move(settings)) {}
  virtual ~Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // One reply to the conversation: `system`, then `turns` (starting with a
  // user turn), with `tools` offered (none: a text answer). Adds the reply's
  // usage; past max_tokens_per_run the reply is an error (kUnavailable)
  // whose repair names the setting.
  Result<Reply> Complete(const std::string& system, const std::vector<Turn>& turns,
                         const std::vector<Tool>& tools);

  const ModelSettings& settings() const { return s_; }
  const Usage& used() const { return used_; }
  int requests() const { return requests_; }
  // What requests go to, for messages ("claude -p" for claude-code).
  virtual std::string Where() const = 0;

 protected:
  // One request, retried as the back end judges (requests_ counts each try).
  virtual Result<Reply> Ask(const std::string& system, const std::vector<Turn>& turns,
                            const std::vector<Tool>& tools) = 0;
  ModelSettings s_;
  int requests_ = 0;

 private:
  Usage used_;
};

// The model settings of a store's consolidation settings: provider, endpoint,
// model, the key read from the environment variable they name, timeouts,
// retries, the run budget. `model` overrides memory.consolidation_model when
// not empty. A provider that needs a model or a key it does not have is an
// error naming config.toml whose repair ends with `without_model`, the way
// to do the job with no model. The day's budget counts from the store's
// usage record (extract::ReadModelUsage) at `now`.
Result<ModelSettings> ModelSettingsFor(const consolidate::Settings& s, const store::Store& store,
                                       const std::string& model, const std::string& without_model);

// The back end `settings.provider` names.
Result<std::unique_ptr<Model>> MakeModel(ModelSettings settings);

// The tools of consolidate::ToolBox::Schemas() (OpenAI function objects) in
// the neutral shape.
std::vector<Tool> ToolsFromFunctions(const Json& functions);

}  // namespace lore::llm
