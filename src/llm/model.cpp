#include "lore/llm/model.h"

#include <cstdlib>

#include "llm/backends.h"
#include "lore/extract/extract.h"

namespace lore::llm {

std::optional<Error> BudgetError(const ModelSettings& s, const Usage& run) {
  if (s.max_tokens_per_run > 0 && run.total() > s.max_tokens_per_run) {
    return Error{ErrorCode::kUnavailable,
                 "the run used " + std::to_string(run.total()) + " tokens, over its budget of " +
                     std::to_string(s.max_tokens_per_run),
                 s.config_path, 0,
                 "nothing was changed; raise llm.max_tokens_per_run in config.toml (0: no limit)"};
  }
  const int64_t day = s.day_tokens_before + run.total();
  if (s.max_tokens_per_day > 0 && day >= s.max_tokens_per_day) {
    return Error{ErrorCode::kUnavailable,
                 "today's model runs used " + std::to_string(day) +
                     " tokens, the daily budget of " + std::to_string(s.max_tokens_per_day),
                 s.config_path, 0,
                 "nothing was changed and the staged entries wait; raise "
                 "llm.max_tokens_per_day in config.toml (0: no limit), or use --engine rules"};
  }
  return std::nullopt;
}

Result<Reply> Model::Complete(const std::string& system, const std::vector<Turn>& turns,
                              const std::vector<Tool>& tools) {
  if (auto e = BudgetError(s_, used_)) return tl::unexpected(*e);
  LORE_ASSIGN(Reply r, Ask(system, turns, tools));
  used_ += r.usage;
  if (auto e = BudgetError(s_, used_);
      e && s_.max_tokens_per_run > 0 && used_.total() > s_.max_tokens_per_run) {
    return tl::unexpected(*e);  // the day's budget stops the next request, not this one
  }
  return r;
}

Result<ModelSettings> ModelSettingsFor(const consolidate::Settings& s, const store::Store& store,
                                       const std::string& model, const std::string& without_model) {
  ModelSettings m;
  m.provider = s.llm_provider;
  m.base_url = s.llm_base_url;
  m.model = model.empty() ? s.model : model;
  m.api_key_env = s.llm_api_key_env;
  m.claude_command = s.llm_claude_command;
  m.config_path = store.config_path();
  m.max_output_tokens = s.llm_max_output_tokens;
  m.timeout = std::chrono::seconds(s.llm_timeout_seconds);
  m.connect_timeout = std::chrono::seconds(s.llm_connect_timeout_seconds);
  m.run_timeout = std::chrono::seconds(s.llm_run_timeout_seconds);
  m.max_retries = static_cast<int>(s.llm_max_retries);
  m.backoff = std::chrono::milliseconds(s.llm_retry_backoff_ms);
  m.max_tokens_per_run = s.llm_max_tokens_per_run;
  m.max_tokens_per_day = s.llm_max_tokens_per_day;
  LORE_ASSIGN(extract::ModelUsage day,
              extract::ReadModelUsage(store, std::chrono::system_clock::now()));
  m.day_tokens_before = day.tokens;
  if (!m.api_key_env.empty()) {
    if (const char* key = std::getenv(m.api_key_env.c_str())) m.api_key = key;
  }
  if (m.model.empty() && m.provider == "openai") {
    return Fail(ErrorCode::kUnavailable, "memory.consolidation_model is not set",
                store.config_path(), 0,
                "set memory.consolidation_model to the model's name (or " + without_model + ")");
  }
  if (m.api_key.empty() && m.provider == "anthropic") {
    return Fail(ErrorCode::kUnavailable,
                "the environment variable " + m.api_key_env + " holds no Anthropic API key",
                store.config_path(), 0,
                "export " + m.api_key_env +
                    ", or set llm.provider = \"claude-code\" to use your "
                    "Claude login (or " +
                    without_model + ")");
  }
  return m;
}

Result<std::unique_ptr<Model>> MakeModel(ModelSettings settings) {
  std::unique_ptr<Model> m;
  if (settings.provider == "anthropic") {
    m = std::make_unique<AnthropicModel>(std::move(settings));
  } else if (settings.provider == "claude-code") {
    m = std::make_unique<ClaudeCodeModel>(std::move(settings));
  } else {
    m = std::make_unique<OpenAiModel>(std::move(settings));
  }
  return m;
}

std::vector<Tool> ToolsFromFunctions(const Json& functions) {
  std::vector<Tool> out;
  for (const Json& f : functions) {
    const Json& fn = f["function"];
    out.push_back(
        {fn["name"].get<std::string>(), fn.value("description", std::string()), fn["parameters"]});
  }
  return out;
}

}  // namespace lore::llm
