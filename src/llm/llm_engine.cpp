#include "lore/llm/llm_engine.h"

#include <cstdlib>

#include "consolidate/candidates.h"
#include "consolidate/prompt.h"
#include "consolidate/tools.h"
#include "lore/json/value.h"
#include "lore/llm/chat.h"
#include "lore/testing/point.h"

namespace lore::llm {
namespace {

using consolidate::Settings;

Json ToolMessage(const Json& call, const std::string& content) {
  return {{"role", "tool"}, {"tool_call_id", call["id"]}, {"content", content}};
}

}  // namespace

Result<ChatSettings> ChatSettingsFor(const Settings& s, const store::Store& store,
                                     const std::string& without_model) {
  if (s.model.empty()) {
    return Fail(ErrorCode::kUnavailable, "memory.consolidation_model is not set",
                store.config_path(), 0,
                "set memory.consolidation_model to the model's name (or " + without_model + ")");
  }
  ChatSettings c;
  c.base_url = s.llm_base_url;
  c.model = s.model;
  c.api_key_env = s.llm_api_key_env;
  if (const char* key = std::getenv(s.llm_api_key_env.c_str())) c.api_key = key;
  c.timeout = std::chrono::seconds(s.llm_timeout_seconds);
  c.connect_timeout = std::chrono::seconds(s.llm_connect_timeout_seconds);
  c.max_retries = static_cast<int>(s.llm_max_retries);
  c.backoff = std::chrono::milliseconds(s.llm_retry_backoff_ms);
  return c;
}

Result<std::vector<std::string>> LlmEngine::Run(const consolidate::RunInput& in,
                                                consolidate::Workspace& ws) {
  const Settings& s = *in.settings;
  LORE_ASSIGN(ChatSettings chat_settings, ChatSettingsFor(s, store_, "use --engine rules"));
  LORE_ASSIGN(auto candidates, consolidate::LoadCandidates(store_));
  LORE_ASSIGN(auto prompt, consolidate::BuildPrompt(in, ws, candidates));
  ChatClient chat(std::move(chat_settings));
  consolidate::ToolBox tools(store_.dir(), ws, in, candidates);
  Json messages = Json::array({{{"role", "system"}, {"content", prompt.system}},
                               {{"role", "user"}, {"content", prompt.user}}});
  const Json schemas = consolidate::ToolBox::Schemas();
  int failures = 0;
  std::string last_refusal;
  for (int64_t turn = 0; turn < s.llm_max_turns; ++turn) {
    LORE_TRY(testing::Point(testing::kLlmTurn));
    LORE_ASSIGN(Json reply, chat.Complete(messages, schemas));
    messages.push_back(reply);
    if (!reply.contains("tool_calls")) return tools.notes();  // answered without tools: done
    auto saved = ws.Save();
    bool refused = false, finished = false;
    for (const Json& call : reply["tool_calls"]) {
      if (refused) {
        messages.push_back(ToolMessage(
            call,
            R"({"error":"not run: an earlier call of this turn was refused and the turn was rolled back"})"));
        continue;
      }
      auto outcome = tools.Call(call["function"]["name"].get<std::string>(),
                                call["function"]["arguments"].get<std::string>());
      messages.push_back(ToolMessage(call, outcome.content));
      if (outcome.rejected) {
        refused = true;
        last_refusal = outcome.content;
      }
      finished = finished || outcome.finished;
    }
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
