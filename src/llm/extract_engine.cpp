#include "lore/llm/extract_engine.h"

#include "lore/extract/model_io.h"
#include "lore/json/value.h"
#include "lore/llm/llm_engine.h"
#include "lore/testing/point.h"

namespace lore::llm {


Result<ExtractEngine> MakeExtractEngine(const store::Store& store) {
  LORE_ASSIGN(consolidate::Settings cons, consolidate::LoadSettings(store));
  LORE_ASSIGN(extract::Settings ex, extract::LoadSettings(store));
  cons.model = ex.model;
  if (cons.model.empty()) {
    return Fail(ErrorCode::kUnavailable,
                "neither memory.extract_model nor memory.consolidation_model is set",
                store.config_path(), 0,
                "set memory.extract_model to the model's name (or use --engine rules)");
  }
  LORE_ASSIGN(ChatSettings chat, ChatSettingsFor(cons, store, "use --engine rules"));
  return ExtractEngine(std::move(chat), ex.chunk_bytes, cons.max_lint_failures,
                       store.config_path());
}

Status ExtractEngine::Take(const extract::Event& event) {
  std::string line = digest_.Line(event);
  if (line.empty()) return Ok();
  if (!chunk_.empty() && chunk_.size() + line.size() + 1 > chunk_bytes_) LORE_TRY(Ask());
  chunk_ += line;
  chunk_ += '\n';
  return Ok();
}

Status ExtractEngine::Ask() {
  if (chunk_.empty()) return Ok();
  Json messages = Json::array({{{"role", "system"}, {"content", extract::ExtractSystemPrompt()}},
                               {{"role", "user"}, {"content", chunk_}}});
  chunk_.clear();
  std::string last;
  for (int64_t i = 0; i < max_failures_; ++i) {
    LORE_TRY(testing::Point(testing::kLlmTurn));
    LORE_ASSIGN(Json reply, chat_.Complete(messages, Json::array()));
    std::string body;
    if (reply.contains("content") && reply["content"].is_string()) {
      body = reply["content"].get<std::string>();
    }
    auto lists = extract::ParseModelAnswer(body);
    if (lists) {
      extract::MergeLists(entry_, std::move(*lists));
      return Ok();
    }
    last = lists.error().what;
    messages.push_back({{"role", "assistant"}, {"content", body}});
    messages.push_back({{"role", "user"},
                        {"content", "Your answer was refused: " + last +
                                        ". Answer again with exactly one JSON object in the "
                                        "schema, and nothing else."}});
  }
  return Fail(ErrorCode::kInvalidInput,
              "the model's extract was refused " + std::to_string(max_failures_) +
                  " times (last: " + last + ")",
              config_, 0,
              "nothing was staged and the cursor did not move; try another model "
              "(memory.extract_model), raise memory.consolidation.max_lint_failures, or use "
              "--engine rules");
}

Result<consolidate::StagedEntry> ExtractEngine::Finish() {
  LORE_TRY(Ask());
  return std::move(entry_);
}

}  // namespace lore::llm
