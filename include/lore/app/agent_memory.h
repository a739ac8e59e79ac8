// `lore import agent-memory <repo>`: what the coding agents wrote down about a
// project themselves (Claude Code's auto memory, the memory sections of
// CLAUDE.md and its kin, Codex's memories) queued as proposals for the
// person's review, once: a fact already proposed, kept or declined is never
// proposed again (docs/agents.md). The agents' files are only read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

struct AgentFact {
  enum class Status {
    kQueued,      // a new proposal (id)
    kKnown,       // already proposed, kept or declined (or twice in the agents' files)
    kRefused,     // the queue refused it: `reason`
    kWouldQueue,  // --dry-run
  };
  Status status = Status::kQueued;
  std::string agent;    // claude-code, codex, qwen-code, gemini-cli
  std::string origin;   // "Claude Code's auto memory", "CLAUDE.md", ...
  std::string where;    // path:line, the home folder as ~
  std::string subject;  // as queued (redacted)
  std::string id;       // kQueued
  std::string reason;   // kRefused
};

struct AgentMemoryImport {
  std::string project;  // the checkout whose agents' files were read
  std::string wave;     // the wave the new proposals were queued in
  std::vector<AgentFact> facts;
  int64_t Count(AgentFact::Status s) const;
};

// Reads the agents' files of the checkout holding `folder` (its top folder,
// the one with .git, as Claude Code keys its memory) under `home`, and queues
// every fact not seen before in that checkout's store (or, with `dry_run`,
// says what it would queue). Each value passes the redactor first, as every
// proposal does; the facts a wave may hold are not limited (the wave is the
// import's own). A `folder` that is no folder is an error.
Result<AgentMemoryImport> ImportAgentMemory(const std::string& folder, const std::string& home,
                                            bool dry_run, text::TimePoint now);

}  // namespace lore::app
