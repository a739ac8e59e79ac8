// A test-only fault hook for consolidation runs, read from the environment
// variable LORE_TEST_HOOK; unset (always, outside tests) it does nothing.
//
//   LORE_TEST_HOOK=<point>:<action>[,<point>:<action>...]
//   action: pause=<ms> | wait=<file> (until the file exists; two minutes at
//           most) | crash (SIGKILL to itself) | fail (the run fails)
//
// Tests hold a run with wait= and release it by creating the file once they
// have checked what they need, so that no check depends on the machine's speed.
//
// Points, in the order a run reaches them: after-lock, after-snapshot,
// before-commit (engine done, nothing written), mid-commit (journal written,
// first file renamed into place), after-commit. The LLM worker adds
// llm-turn (before each request to the model).
#pragma once

#include <string_view>

#include "lore/error.h"

namespace lore::consolidate {

// Applies the action configured for `point`, if any. `fail` returns an Error.
Status TestHook(std::string_view point);

}  // namespace lore::consolidate
