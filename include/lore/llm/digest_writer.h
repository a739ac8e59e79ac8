// `lore distill --llm`: the model writes the body of okf/index.md. One
// conversation without tools: the prompt of distill/digest.h, then, while
// the answer breaks a rule of CheckDigest, the broken rule is sent back and
// the model answers again, up to `max_lint_failures` answers in all; then the
// run fails and okf/ is left as it was. Each answer loses its private spans
// and secrets (redact::Clean) before it is checked and returned.
#pragma once

#include <string>
#include <vector>

#include "lore/consolidate/settings.h"
#include "lore/distill/digest.h"
#include "lore/llm/model.h"
#include "lore/store/store.h"

namespace lore::llm {

Result<std::string> WriteDigest(const store::Store& store, const consolidate::Settings& settings,
                                const std::vector<distill::Page>& pages,
                                const std::vector<std::string>& linkable, Usage* used = nullptr);

}  // namespace lore::llm
