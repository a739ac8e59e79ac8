// The LLM engine: an agentic consolidation through an OpenAI-compatible
// chat-completions endpoint with the tools of consolidate/tools.h.
//
// One run is one conversation: the prompt (consolidate/prompt.h), then turns
// until the model calls `finish` (or answers without calling a tool). Before
// each turn the workspace is saved; when a write of the turn is refused, the
// turn's writes are undone, its remaining calls are not run, and the failure
// is counted. At `max_lint_failures` refused turns the run aborts; it also
// aborts after `llm.max_turns` replies, or when the endpoint fails. An
// aborted run changes nothing.
#pragma once

#include "lore/consolidate/engine.h"
#include "lore/consolidate/settings.h"
#include "lore/llm/chat.h"
#include "lore/store/store.h"

namespace lore::llm {

// The chat client's settings from the store's consolidation settings (model,
// endpoint, the key read from the environment variable they name, timeouts,
// retries); an unset model is an error naming config.toml whose repair ends
// with `without_model`, the way to do the job with no model.
Result<ChatSettings> ChatSettingsFor(const consolidate::Settings& s, const store::Store& store,
                                     const std::string& without_model);

class LlmEngine final : public consolidate::Engine {
 public:
  explicit LlmEngine(const store::Store& store) : store_(store) {}
  std::string_view name() const override { return "llm"; }
  Result<std::vector<std::string>> Run(const consolidate::RunInput& in,
                                       consolidate::Workspace& ws) override;

 private:
  const store::Store& store_;
};

}  // namespace lore::llm
