// The settings of Phase 1 extraction, read from the store's config.toml
// (docs/extract.md, docs/config.md).
#pragma once

#include <cstdint>
#include <string>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::extract {

struct Settings {
  // memory.extract_threshold: bytes a transcript grows past its cursor before
  // the Stop hook extracts (pre-compact and session-end always do).
  int64_t threshold_bytes = 256 * 1024;
  // memory.extract_model, else memory.consolidation_model: the LLM engine's model.
  std::string model;
  // memory.extract_engine: "rules" or "llm", when --engine is not given.
  std::string engine = "rules";
  // memory.extract_chunk_bytes: transcript digest sent to the model at once.
  int64_t chunk_bytes = 24 * 1024;
};

Result<Settings> LoadSettings(const store::Store& store);

}  // namespace lore::extract
