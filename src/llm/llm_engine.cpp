#include "lore/llm/llm_engine.h"

#include "consolidate/candidates.h"
#include "consolidate/prompt.h"
#include "consolidate/tools.h"
#include "lore/testing/point.h"

namespace lore::llm {

Result<std::vector<std::string>> LlmEngine::Run(const consolidate::RunInput& in,
                                                consolidate::Workspace& ws) {
  const consolidate::Settings& s = *in.settings;
  LORE_ASSIGN(auto candidates, consolidate::LoadCandidates(store_));
  LORE_ASSIGN(auto prompt, consolidate::BuildPrompt(in, ws, candidates));
  consolidate::ToolBox tools(store_.dir(), ws, in, candidates);
  std::vector<Turn> turns = {{Turn::Role::kUser, prompt.user, {}, {}}};
  const std::vector<Tool> specs = ToolsFromFunctions(consolidate::ToolBox::Schemas());
  int failures = 0;
  std::string last_refusal;
  for (int64_t turn = 0; turn < s.llm_max_turns; ++turn) {
    LORE_TRY(testing::Point(testing::kLlmTurn));
    LORE_ASSIGN(Reply reply, model_.Complete(prompt.system, turns, specs));
    turns.push_back({Turn::Role::kAssistant, reply.text, reply.calls, {}});
    if (reply.calls.empty()) return tools.notes();  // answered without tools: done
    auto saved = ws.Save();
    bool refused = false, finished = false;
    Turn results{Turn::Role::kTool, "", {}, {}};
    for (const ToolCall& call : reply.calls) {
      if (refused) {
        results.results.push_back(
            {call.id,
             R"({"error":"not run: an earlier call of this turn was refused and the turn was rolled back"})"});
        continue;
      }
      auto outcome = tools.Call(call.name, call.arguments);
      results.results.push_back({call.id, outcome.content});
      if (outcome.rejected) {
        refused = true;
        last_refusal = outcome.content;
      }
      finished = finished || outcome.finished;
    }
    turns.push_back(std::move(results));
    if (refused) {
      ws.Restore(saved);
      if (++failures >= s.max_lint_failures) {
        return Fail(ErrorCode::kInvalidInput,
                    "the LLM run was aborted after " + std::to_string(failures) +
                        " refused writes (last: " + last_refusal + ")",
                    store_.config_path(), 0,
                    "nothing was changed; the staged entries stay "
                    "(memory.consolidation.max_lint_failures sets the limit)");
      }
      continue;  // a refused finish does not end the run: the model should fix its writes
    }
    if (finished) return tools.notes();
  }
  return Fail(ErrorCode::kUnavailable,
              "the model did not finish within " + std::to_string(s.llm_max_turns) + " replies",
              store_.config_path(), 0,
              "nothing was changed; raise llm.max_turns or try another model");
}

}  // namespace lore::llm
