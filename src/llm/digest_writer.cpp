#include "lore/llm/digest_writer.h"

#include <algorithm>

#include "lore/json/value.h"
#include "lore/llm/model.h"
#include "redact/redact.h"

namespace lore::llm {

Result<std::string> WriteDigest(const store::Store& store, const consolidate::Settings& settings,
                                const std::vector<distill::Page>& pages,
                                const std::vector<std::string>& linkable, Usage* used) {
  auto index = std::find_if(pages.begin(), pages.end(),
                            [](const distill::Page& p) { return p.first == "index.md"; });
  if (index == pages.end()) return std::string();
  LORE_ASSIGN(ModelSettings ms,
              ModelSettingsFor(settings, store, "", "run 'lore distill' without --llm"));
  LORE_ASSIGN(std::unique_ptr<Model> model, MakeModel(std::move(ms)));
  const distill::DigestPrompt prompt = distill::MakeDigestPrompt(pages, linkable);
  std::vector<Turn> turns = {{Turn::Role::kUser, prompt.user, {}, {}}};
  const int64_t tries = std::max<int64_t>(1, settings.max_lint_failures);
  Error last{ErrorCode::kInvalidInput, "", store.index_path(), 0, ""};
  for (int64_t i = 0; i < tries; ++i) {
    auto asked = model->Complete(prompt.system, turns, {});
    if (used) *used = model->used();
    LORE_ASSIGN(Reply reply, std::move(asked));
    // What the model wrote becomes okf/index.md, read at every session
    // start: it passes the redactor first (docs/secrets.md).
    std::string body = redact::Clean(reply.text);
    auto checked = distill::CheckDigest(distill::WithDigest(index->second, body), linkable);
    if (checked) return body;
    last = checked.error();
    turns.push_back({Turn::Role::kAssistant, reply.text, {}, {}});
    turns.push_back(
        {Turn::Role::kUser, last.what + ". Write the whole body again within the rules.", {}, {}});
  }
  return Fail(ErrorCode::kInvalidInput,
              "the model's digest broke the rules " + std::to_string(tries) +
                  " times (last: " + last.what + ")",
              store.index_path(), 0,
              "okf/ is unchanged; try another model (memory.consolidation_model), raise "
              "max_lint_failures, or run 'lore distill' without --llm");
}

}  // namespace lore::llm
