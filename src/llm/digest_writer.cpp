#include "lore/llm/digest_writer.h"

#include <algorithm>

#include "lore/json/value.h"
#include "lore/llm/chat.h"
#include "lore/llm/llm_engine.h"
#include "redact/redact.h"

namespace lore::llm {


Result<std::string> WriteDigest(const store::Store& store, const consolidate::Settings& settings,
                                const std::vector<distill::Page>& pages,
                                const std::vector<std::string>& linkable) {
  auto index = std::find_if(pages.begin(), pages.end(),
                            [](const distill::Page& p) { return p.first == "index.md"; });
  if (index == pages.end()) return std::string();
  LORE_ASSIGN(ChatSettings chat_settings,
              ChatSettingsFor(settings, store, "run 'lore distill' without --llm"));
  ChatClient chat(std::move(chat_settings));
  const distill::DigestPrompt prompt = distill::MakeDigestPrompt(pages, linkable);
  Json messages = Json::array({{{"role", "system"}, {"content", prompt.system}},
                               {{"role", "user"}, {"content", prompt.user}}});
  const int64_t tries = std::max<int64_t>(1, settings.max_lint_failures);
  Error last{ErrorCode::kInvalidInput, "", store.index_path(), 0, ""};
  for (int64_t i = 0; i < tries; ++i) {
    LORE_ASSIGN(Json reply, chat.Complete(messages, Json::array()));
    std::string body;
    if (reply.contains("content") && reply["content"].is_string()) {
      // What the model wrote becomes okf/index.md, read at every session
      // start: it passes the redactor first (docs/secrets.md).
      body = redact::Clean(reply["content"].get_ref<const std::string&>());
    }
    auto checked = distill::CheckDigest(distill::WithDigest(index->second, body), linkable);
    if (checked) return body;
    last = checked.error();
    messages.push_back(reply);
    messages.push_back({{"role", "user"},
                        {"content", last.what + ". Write the whole body again within the rules."}});
  }
  return Fail(ErrorCode::kInvalidInput,
              "the model's digest broke the rules " + std::to_string(tries) +
                  " times (last: " + last.what + ")",
              store.index_path(), 0,
              "okf/ is unchanged; try another model (memory.consolidation_model), raise "
              "max_lint_failures, or run 'lore distill' without --llm");
}

}  // namespace lore::llm
