// What the LLM engine of Phase 1 sends and accepts (the engine itself lives
// in lore-llm, src/llm/extract_engine.cpp): the transcript as short digest
// lines (the person's and the agent's words, tool calls and the first line of
// their results; never raw file contents), the prompt with the staged-entry
// schema of docs/consolidation.md, and the check of the model's answer.
#pragma once

#include <deque>
#include <string>
#include <string_view>

#include "lore/consolidate/staged_entry.h"
#include "lore/error.h"
#include "lore/extract/transcript.h"

namespace lore::extract {

inline constexpr size_t kDigestTextBytes = 2000;   // of one person/agent text
inline constexpr size_t kDigestDetailBytes = 300;  // of a tool call or result

// Turns events into digest lines ("[L12] person: …"). Empty for what the
// model need not see: sidechains, tools other than shell commands, file
// edits, plans and questions, and the results of those other tools (a Read's
// result is a file's contents).
class Digester {
 public:
  std::string Line(const Event& event);

 private:
  std::deque<std::string> wanted_;  // ids of calls whose result is shown (bounded)
};

// The system prompt: the task, the rules (verbatim excerpts only, no
// sources, empty lists are fine) and the schema.
std::string ExtractSystemPrompt();

// Checks the model's answer: one JSON object (a ```json fence around it is
// allowed) with only the four lists, valid as a staged entry; a `source` the
// model adds is ignored (lore sets it). The error's `what` is the reason sent
// back to the model.
Result<consolidate::StagedEntry> ParseModelAnswer(std::string_view answer);

// Adds `more`'s items to `into`, at most kMaxItems per list.
void MergeLists(consolidate::StagedEntry& into, consolidate::StagedEntry more);

}  // namespace lore::extract
