#include "lore/consolidate/settings.h"

#include "lore/config/config.h"

namespace lore::consolidate {

namespace {

using config::Config;
using config::Key;

template <class T>
Status Read(const Config& c, std::string_view name, T& out) {
  LORE_ASSIGN(out, c.Get(Key<T>{name, out}));
  return Ok();
}

Status AtLeast(const Config& c, std::string_view name, int64_t value, int64_t min) {
  if (value >= min) return Ok();
  return Fail(c.ValueError(name, "must be at least " + std::to_string(min),
                           "set " + std::string(name) + " to " + std::to_string(min) + " or more"));
}

// Bounds that keep every derived quantity (milliseconds, doubled back-offs)
// far from overflow.
Status Within(const Config& c, std::string_view name, int64_t value, int64_t min, int64_t max) {
  LORE_TRY(AtLeast(c, name, value, min));
  if (value <= max) return Ok();
  return Fail(c.ValueError(name, "must be at most " + std::to_string(max),
                           "set " + std::string(name) + " to " + std::to_string(max) + " or less"));
}

}  // namespace

Result<Settings> LoadSettings(const store::Store& store) {
  LORE_ASSIGN(Config c, Config::Load(store.config_path()));
  Settings s;
  LORE_TRY(Read(c, "memory.staging.threshold_files", s.threshold_files));
  LORE_TRY(Read(c, "memory.staging.threshold_bytes", s.threshold_bytes));
  LORE_TRY(Read(c, "memory.consolidation.engine", s.engine));
  LORE_TRY(Read(c, "memory.consolidation.max_lint_failures", s.max_lint_failures));
  LORE_TRY(Read(c, "memory.consolidation.summary_max_chars", s.summary_max_chars));
  const bool legacy = c.Has("llm.base_url") || c.Has("llm.api_key_env");
  s.llm_provider = legacy ? "openai" : "claude-code";
  LORE_TRY(Read(c, "llm.provider", s.llm_provider));
  if (s.llm_provider != "claude-code" && s.llm_provider != "anthropic" &&
      s.llm_provider != "openai") {
    return Fail(c.ValueError("llm.provider", "must be \"claude-code\", \"anthropic\" or \"openai\"",
                             "set llm.provider = \"claude-code\" (your Claude login), "
                             "\"anthropic\" (ANTHROPIC_API_KEY) or \"openai\""));
  }
  if (s.llm_provider == "anthropic") {
    s.llm_base_url = "https://api.anthropic.com";
    s.llm_api_key_env = "ANTHROPIC_API_KEY";
    s.model = kAnthropicDefaultModel;
  } else if (s.llm_provider == "claude-code") {
    s.llm_api_key_env = "";
  }
  LORE_TRY(Read(c, "memory.consolidation_model", s.model));
  LORE_TRY(Read(c, "llm.base_url", s.llm_base_url));
  LORE_TRY(Read(c, "llm.api_key_env", s.llm_api_key_env));
  LORE_TRY(Read(c, "llm.claude_command", s.llm_claude_command));
  LORE_TRY(Read(c, "llm.max_output_tokens", s.llm_max_output_tokens));
  LORE_TRY(Read(c, "llm.run_timeout_seconds", s.llm_run_timeout_seconds));
  LORE_TRY(Read(c, "llm.max_tokens_per_run", s.llm_max_tokens_per_run));
  LORE_TRY(Read(c, "llm.max_tokens_per_day", s.llm_max_tokens_per_day));
  LORE_TRY(Read(c, "llm.timeout_seconds", s.llm_timeout_seconds));
  LORE_TRY(Read(c, "llm.connect_timeout_seconds", s.llm_connect_timeout_seconds));
  LORE_TRY(Read(c, "llm.max_retries", s.llm_max_retries));
  LORE_TRY(Read(c, "llm.retry_backoff_ms", s.llm_retry_backoff_ms));
  LORE_TRY(Read(c, "llm.max_turns", s.llm_max_turns));
  LORE_TRY(Read(c, "llm.prompt_memory_chars", s.llm_prompt_memory_chars));
  if (s.engine != "rules" && s.engine != "llm") {
    return Fail(c.ValueError("memory.consolidation.engine", "must be \"rules\" or \"llm\"",
                             "set memory.consolidation.engine = \"rules\" (or \"llm\")"));
  }
  LORE_TRY(AtLeast(c, "memory.staging.threshold_files", s.threshold_files, 1));
  LORE_TRY(AtLeast(c, "memory.staging.threshold_bytes", s.threshold_bytes, 1));
  LORE_TRY(AtLeast(c, "memory.consolidation.max_lint_failures", s.max_lint_failures, 1));
  LORE_TRY(AtLeast(c, "memory.consolidation.summary_max_chars", s.summary_max_chars, 1000));
  if (s.summary_max_chars > 20000) {
    return Fail(c.ValueError("memory.consolidation.summary_max_chars",
                             "must be at most 20000 (the linter's limit for the summary)",
                             "set memory.consolidation.summary_max_chars to 20000 or less"));
  }
  LORE_TRY(Within(c, "llm.timeout_seconds", s.llm_timeout_seconds, 1, 86400));
  LORE_TRY(Within(c, "llm.connect_timeout_seconds", s.llm_connect_timeout_seconds, 1, 3600));
  LORE_TRY(Within(c, "llm.max_retries", s.llm_max_retries, 0, 20));
  LORE_TRY(Within(c, "llm.retry_backoff_ms", s.llm_retry_backoff_ms, 0, 60000));
  LORE_TRY(Within(c, "llm.max_turns", s.llm_max_turns, 1, 1000));
  LORE_TRY(Within(c, "memory.consolidation.max_lint_failures", s.max_lint_failures, 1, 1000));
  LORE_TRY(Within(c, "llm.max_output_tokens", s.llm_max_output_tokens, 256, 1000000));
  LORE_TRY(Within(c, "llm.run_timeout_seconds", s.llm_run_timeout_seconds, 10, 86400));
  LORE_TRY(Within(c, "llm.max_tokens_per_run", s.llm_max_tokens_per_run, 0, int64_t{1} << 40));
  LORE_TRY(Within(c, "llm.max_tokens_per_day", s.llm_max_tokens_per_day, 0, int64_t{1} << 40));
  LORE_TRY(Within(c, "llm.prompt_memory_chars", s.llm_prompt_memory_chars, 0, int64_t{1} << 30));
  return s;
}

}  // namespace lore::consolidate
