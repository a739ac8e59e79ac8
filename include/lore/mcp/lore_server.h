// lore's MCP server: the MCP core (mcp/server.h) with lore's tools and
// resources bound to one store.
//
// Tools: memory_search, knowledge_search, memory_read, propose_learning,
// capture_review, status. Resources: every page of okf/ as
// lore://okf/<name> and the resident summary as lore://memory/summary.md.
// docs/agents.md lists the tools' arguments and answers.
#pragma once

#include <string>

#include "lore/mcp/server.h"
#include "lore/store/store.h"

namespace lore::mcp {

struct LoreServerOptions {
  std::string repo;      // how the repository was named (messages only)
  std::string env_wave;  // $LORE_WAVE: the default wave of propose_learning
};

// A server for `store` (which need not exist yet: reads find nothing,
// capture_review and propose_learning create it).
Server MakeLoreServer(const store::Store& store, const LoreServerOptions& options);

}  // namespace lore::mcp
