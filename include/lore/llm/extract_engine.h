// The LLM engine of Phase 1 (`lore extract --engine llm`, run by lore-llm):
// the transcript's digest lines (extract/model_io.h) go to the model in
// chunks of at most memory.extract_chunk_bytes; each answer must be a valid
// set of staged-entry lists. A refused answer is sent back with the reason,
// up to memory.consolidation.max_lint_failures answers per chunk; then the
// run fails and nothing is staged. The model never chooses `source`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "lore/consolidate/settings.h"
#include "lore/extract/engine.h"
#include "lore/extract/model_io.h"
#include "lore/extract/settings.h"
#include "lore/llm/model.h"
#include "lore/store/store.h"

namespace lore::llm {

class ExtractEngine final : public extract::Engine {
 public:
  ExtractEngine(std::unique_ptr<Model> model, int64_t chunk_bytes, int64_t max_failures,
                std::string config)
      : model_(std::move(model)),
        chunk_bytes_(static_cast<size_t>(chunk_bytes)),
        max_failures_(max_failures),
        config_(std::move(config)) {}
  std::string_view name() const override { return "llm"; }
  Status Take(const extract::Event& event) override;
  Result<consolidate::StagedEntry> Finish() override;

  int requests() const { return model_->requests(); }
  const Usage& used() const { return model_->used(); }

 private:
  Status Ask();  // sends the chunk, merges the answer

  std::unique_ptr<Model> model_;
  size_t chunk_bytes_;
  int64_t max_failures_;
  std::string config_;  // config.toml, named in errors
  extract::Digester digest_;
  std::string chunk_;
  consolidate::StagedEntry entry_;
};

// The engine for `store`: the model of memory.extract_model (else
// memory.consolidation_model) on consolidation's provider, endpoint, key,
// timeouts, retries and run budget.
Result<ExtractEngine> MakeExtractEngine(const store::Store& store);

}  // namespace lore::llm
