#include "lore/app/engine.h"

#include "fs/atomic_file.h"
#include "lore/config/config.h"
#include "lore/extract/extract.h"
#include "lore/fs/fd.h"

namespace lore::app {

Result<std::string> ChooseEngine(const store::Store& store, std::string_view engine) {
  bool known = false;
  for (std::string_view e : kEngineChoices) known = known || e == engine;
  if (!known) {
    return Fail(ErrorCode::kInvalidInput, "unknown engine '" + std::string(engine) + "'", "", 0,
                "use --engine rules, claude-code, anthropic or openai");
  }
  LORE_TRY(store.Ensure(std::chrono::system_clock::now(), store::RawCheck::kSkip));
  const std::string path = store.config_path();
  std::string text;
  if (fs::Exists(path)) {
    LORE_ASSIGN(text, fs::ReadFile(path, fs::Kind::kConfig));
  }
  const std::string mode = engine == "rules" ? "rules" : "llm";
  std::vector<std::pair<std::string, std::string>> keys = {{"memory.consolidation.engine", mode},
                                                           {"memory.extract_engine", mode}};
  if (engine != "rules") keys.emplace_back("llm.provider", std::string(engine));
  LORE_ASSIGN(std::string updated, config::SetStrings(text, path, keys));
  if (updated != text) LORE_TRY(fs::WriteFileAtomic(path, updated));
  return engine == "rules"
             ? path + ": the rules engine extracts and consolidates (no model)"
             : path + ": the model extracts and consolidates, through " + std::string(engine);
}

Result<fs::FileLock> BeginModelRun(const store::Store& store) {
  const std::string dir = store.Path("extract");
  LORE_TRY(fs::RefuseSymlink(dir, "extract cursor folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  return fs::FileLock::Acquire(fs::Join(dir, ".model-run.lock"), fs::LockMode::kExclusive,
                               std::chrono::hours(2));
}

std::optional<Error> CountModelUsage(const store::Store& store, int64_t tokens) {
  if (tokens <= 0) return std::nullopt;
  auto s = extract::AddModelUsage(store, tokens, std::chrono::system_clock::now());
  if (!s) return s.error();
  return std::nullopt;
}

}  // namespace lore::app
