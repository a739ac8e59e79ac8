// The settings consolidation reads from the store's config.toml (docs/config.md). Each has a
// default; docs/consolidation.md lists them.
#pragma once

#include <cstdint>
#include <string>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::consolidate {

struct Settings {
  // [memory.staging]: a consolidation starts after `stage` once either is reached.
  int64_t threshold_files = 20;     // threshold_files
  int64_t threshold_bytes = 65536;  // threshold_bytes
  // [memory.consolidation]
  std::string engine = "rules";   // engine: "rules" or "llm"
  int64_t max_lint_failures = 3;  // max_lint_failures: rejected writes before an LLM run aborts
  int64_t summary_max_chars =
      6000;  // summary_max_chars: the briefing the rules engine writes as the summary, at most
  // [memory]
  std::string model;  // consolidation_model: the LLM engine's model
  // [llm]: the model back end of the LLM engines (docs/consolidation.md).
  // provider: "claude-code" (the user's own `claude -p`), "anthropic" (the
  // Messages API) or "openai" (chat completions: OpenAI, Ollama, vLLM, ...).
  // Unset: "openai" when llm.base_url or llm.api_key_env is set (configs
  // written before the other providers), else "claude-code".
  std::string llm_provider = "claude-code";
  // base_url and api_key_env default by provider: https://api.openai.com/v1
  // and OPENAI_API_KEY, https://api.anthropic.com and ANTHROPIC_API_KEY.
  std::string llm_base_url = "https://api.openai.com/v1";  // base_url
  std::string llm_api_key_env = "OPENAI_API_KEY";          // api_key_env: name of the variable
  std::string llm_claude_command = "claude";  // claude_command: claude-code's program (PATH)
  int64_t llm_max_output_tokens = 8192;       // max_output_tokens: one reply, at most (anthropic)
  int64_t llm_run_timeout_seconds = 1800;     // run_timeout_seconds: one claude-code run, whole
  // Token budgets counted from the providers' usage fields (input, output and
  // cache tokens): a run past max_tokens_per_run stops; no run starts once
  // the day's runs (UTC) reached max_tokens_per_day. 0: no limit.
  int64_t llm_max_tokens_per_run = 1000000;  // max_tokens_per_run
  int64_t llm_max_tokens_per_day = 5000000;  // max_tokens_per_day
  int64_t llm_timeout_seconds = 120;         // timeout_seconds: one request, whole
  int64_t llm_connect_timeout_seconds = 10;  // connect_timeout_seconds
  int64_t llm_max_retries = 3;               // max_retries: after a network error, 429 or 5xx
  int64_t llm_retry_backoff_ms = 1000;       // retry_backoff_ms: first wait, doubled each retry
  int64_t llm_max_turns = 40;                // max_turns: model replies before the run aborts
  int64_t llm_prompt_memory_chars =
      200000;  // prompt_memory_chars: memory/ put in the prompt, at most
};

// The model names a provider falls back to when memory.consolidation_model
// is unset: claude-code lets `claude` pick (its own default), anthropic uses
// kAnthropicDefaultModel, openai has none (the model is required).
inline constexpr const char* kAnthropicDefaultModel = "claude-sonnet-4-5";

// Reads `config.toml` of `store` (missing: defaults). Errors name the file,
// the line and the repair: a wrong type, an engine other than rules|llm, a
// provider other than claude-code|anthropic|openai, thresholds below 1.
Result<Settings> LoadSettings(const store::Store& store);

}  // namespace lore::consolidate
