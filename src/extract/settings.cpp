#include "lore/extract/settings.h"

#include "lore/config/config.h"

namespace lore::extract {

Result<Settings> LoadSettings(const store::Store& store) {
  using config::Key;
  LORE_ASSIGN(config::Config c, config::Config::Load(store.config_path()));
  Settings s;
  LORE_ASSIGN(s.threshold_bytes,
              c.Get(Key<int64_t>{"memory.extract_threshold", s.threshold_bytes}));
  LORE_ASSIGN(std::string fallback, c.Get(Key<std::string>{"memory.consolidation_model", ""}));
  LORE_ASSIGN(s.model, c.Get(Key<std::string>{"memory.extract_model", fallback}));
  LORE_ASSIGN(s.chunk_bytes, c.Get(Key<int64_t>{"memory.extract_chunk_bytes", s.chunk_bytes}));
  LORE_ASSIGN(s.engine, c.Get(Key<std::string>{"memory.extract_engine", s.engine}));
  if (s.engine != "rules" && s.engine != "llm") {
    return Fail(c.ValueError("memory.extract_engine", "must be \"rules\" or \"llm\"",
                             "set memory.extract_engine = \"rules\" (or \"llm\")"));
  }
  if (s.threshold_bytes < 1) {
    return Fail(c.ValueError("memory.extract_threshold", "must be at least 1",
                             "set memory.extract_threshold to a number of bytes, e.g. 262144"));
  }
  if (s.chunk_bytes < 1024 || s.chunk_bytes > (int64_t{1} << 20)) {
    return Fail(c.ValueError("memory.extract_chunk_bytes", "must be between 1024 and 1048576",
                             "set memory.extract_chunk_bytes to e.g. 24576"));
  }
  return s;
}

}  // namespace lore::extract
