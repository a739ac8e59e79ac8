#include "lore/llm/extract_engine.h"

#include "lore/extract/model_io.h"
#include "lore/json/value.h"
#include "lore/testing/point.h"

namespace lore::llm {

Result<ExtractEngine> MakeExtractEngine(const store::Store& store) {
  LORE_ASSIGN(consolidate::Settings cons, consolidate::LoadSettings(store));
  LORE_ASSIGN(extract::Settings ex, extract::LoadSettings(store));
  if (ex.model.empty() && cons.model.empty() && cons.llm_provider == "openai") {
    return Fail(ErrorCode::kUnavailable,
                "neither memory.extract_model nor memory.consolidation_model is set",
                store.config_path(), 0,
                "set memory.extract_model to the model's name (or use --engine rules)");
  }
  LORE_ASSIGN(ModelSettings ms, ModelSettingsFor(cons, store, ex.model, "use --engine rules"));
  LORE_ASSIGN(std::unique_ptr<Model> model, MakeModel(std::move(ms)));
  return ExtractEngine(std::move(model), ex.chunk_bytes, cons.max_lint_failures,
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
  std::vector<Turn> turns = {{Turn::Role::kUser, chunk_, {}, {}}};
  chunk_.clear();
  std::string last;
  for (int64_t i = 0; i < max_failures_; ++i) {
    LORE_TRY(testing::Point(testing::kLlmTurn));
    LORE_ASSIGN(Reply reply, model_->Complete(extract::ExtractSystemPrompt(), turns, {}));
    auto lists = extract::ParseModelAnswer(reply.text);
    if (lists) {
      extract::MergeLists(entry_, std::move(*lists));
      return Ok();
    }
    last = lists.error().what;
    turns.push_back({Turn::Role::kAssistant, reply.text, {}, {}});
    turns.push_back({Turn::Role::kUser,
                     "Your answer was refused: " + last +
                         ". Answer again with exactly one JSON object in the schema, and nothing "
                         "else.",
                     {},
                     {}});
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
