// The settings consolidation reads from the store's config.toml (FORMATS.md
// section 8). Each has a default; docs/consolidation.md lists them.
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
  // [llm]: the OpenAI-compatible endpoint of the LLM engine.
  std::string llm_base_url = "https://api.openai.com/v1";  // base_url
  std::string llm_api_key_env = "OPENAI_API_KEY";          // api_key_env: name of the variable
  int64_t llm_timeout_seconds = 120;                       // timeout_seconds: one request, whole
  int64_t llm_connect_timeout_seconds = 10;                // connect_timeout_seconds
  int64_t llm_max_retries = 3;          // max_retries: after a network error, 429 or 5xx
  int64_t llm_retry_backoff_ms = 1000;  // retry_backoff_ms: first wait, doubled each retry
  int64_t llm_max_turns = 40;           // max_turns: model replies before the run aborts
  int64_t llm_prompt_memory_chars =
      200000;  // prompt_memory_chars: memory/ put in the prompt, at most
};

// Reads `config.toml` of `store` (missing: defaults). Errors name the file,
// the line and the repair: a wrong type, an engine other than rules|llm,
// thresholds below 1.
Result<Settings> LoadSettings(const store::Store& store);

}  // namespace lore::consolidate
