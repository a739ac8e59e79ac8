// The LLM worker's prompt: the system message (the principles of
// docs/consolidation.md and the rules of the tools) and the user message (the consumed
// staged entries, the whole of memory/ but workflow, and the
// knowledge-candidate report). Knowledge pages are not in it: resident
// knowledge injection is off for the worker, which must search.
#pragma once

#include <string>

#include "consolidate/candidates.h"
#include "lore/consolidate/engine.h"
#include "lore/consolidate/workspace.h"
#include "lore/error.h"

namespace lore::consolidate {

struct Prompt {
  std::string system;
  std::string user;
};

// Builds the prompt of a run. memory/ is read through `ws`; once
// `settings.llm_prompt_memory_chars` are used, the remaining records are
// listed by path only (memory_read fetches them).
Result<Prompt> BuildPrompt(const RunInput& in, Workspace& ws, const CandidateReport& candidates);

}  // namespace lore::consolidate
