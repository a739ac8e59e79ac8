// The LLM engine: an agentic consolidation through a model that calls tools
// turn by turn (the anthropic and openai back ends of llm/model.h; the
// claude-code back end runs its own loop, llm/claude_code.h) with the tools
// of consolidate/tools.h.
//
// One run is one conversation: the prompt (consolidate/prompt.h), then turns
// until the model calls `finish` (or answers without calling a tool). Before
// each turn the workspace is saved; when a write of the turn is refused, the
// turn's writes are undone, its remaining calls are not run, and the failure
// is counted. At `max_lint_failures` refused turns the run aborts; it also
// aborts after `llm.max_turns` replies, past the run's token budget, or when
// the endpoint fails. An aborted run changes nothing.
#pragma once

#include "lore/consolidate/engine.h"
#include "lore/consolidate/settings.h"
#include "lore/llm/model.h"
#include "lore/store/store.h"

namespace lore::llm {

class LlmEngine final : public consolidate::Engine {
 public:
  LlmEngine(const store::Store& store, Model& model) : store_(store), model_(model) {}
  std::string_view name() const override { return "llm"; }
  Result<std::vector<std::string>> Run(const consolidate::RunInput& in,
                                       consolidate::Workspace& ws) override;

 private:
  const store::Store& store_;
  Model& model_;
};

}  // namespace lore::llm
