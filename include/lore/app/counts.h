// What a store holds, counted once for every front end that says it: the
// SessionStart briefing's "More in lore's memory" line, the page's overview
// (`lore serve`) and the MCP `status` tool. Each count is what a person can
// open: a regular file, not a dot file, of its folder's kind.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::app {

struct StoreCounts {
  int64_t decisions = 0;  // memory/decisions/*.md
  int64_t requests = 0;   // memory/requests/*.md
  int64_t knowledge = 0;  // knowledge/*.md
  int64_t gotchas = 0;    // of the knowledge pages, gotcha-*.md
  int64_t sessions = 0;   // sessions/*.jsonl, the session logs
  // Counted when asked (kCountQueue, kCountLearnings, kCountRaw): each reads a whole log.
  int64_t pending = 0;            // proposals queued for the person's review (proposals.jsonl)
  int64_t learnings = 0;          // learnings.jsonl: the live ones, which agents are offered
  int64_t expired_learnings = 0;  // and the rest (past expires_at, or confidence <= 0)
  int64_t raw_records = 0;        // raw.jsonl: its non-blank lines
  // With kCountPages: the distilled bundle's pages and the briefing's source.
  std::vector<std::string> okf_pages;  // okf/*: its files' names, sorted
  bool summary = false;                // memory/summary.md is a regular file

  // Whether a briefing could be built from it: records, pages or session logs.
  bool HoldsMemory() const { return decisions + requests + knowledge + sessions > 0; }
};

// What to count: the folders are one readdir each, cheap enough for a hook;
// each log is read whole, so only the callers that show it ask for it.
enum CountPart : unsigned {
  kCountFolders = 1u << 0,    // decisions, requests, knowledge, gotchas, sessions
  kCountQueue = 1u << 1,      // pending (hook::PendingProposals, as the briefing says it)
  kCountLearnings = 1u << 2,  // learnings, expired_learnings
  kCountRaw = 1u << 3,        // raw_records
  kCountPages = 1u << 4,      // okf_pages, summary
};

// The counts of `store` that `parts` (CountPart bits) name, the rest 0; a
// store, folder or log not yet made holds none. A folder reached through a
// symlink, or a log that cannot be read, is an Error.
Result<StoreCounts> CountStore(const store::Store& store, unsigned parts);

}  // namespace lore::app
