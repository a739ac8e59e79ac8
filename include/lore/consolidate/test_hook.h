// Test hooks: named points where a test may pause, fail or kill lore.
//
// The library only calls the hook installed with SetTestHook; none is
// installed in the shipped `lore` and `lore-llm`, so there TestHook() is one
// load of a null pointer and LORE_TEST_HOOK means nothing. The test builds
// (`lore-test`, and the unit tests) link tests/support/env_test_hook.cpp,
// which installs a hook that reads the environment variable
//
//   LORE_TEST_HOOK=<point>:<action>[,<point>:<action>...]
//   action: pause=<ms> | wait=<file> (until the file exists; two minutes at
//           most) | crash (SIGKILL to itself) | fail (the point fails)
//
// Tests hold a run with wait= and release it by creating the file once they
// have checked what they need, so that no check depends on the machine's speed.
//
// Points of a consolidation run, in the order it reaches them: after-lock,
// after-snapshot, before-commit (engine done, nothing written), mid-commit
// (journal written, first file renamed into place), after-commit. The LLM
// worker adds llm-turn (before each request to the model). `lore review`
// adds after-learning-<n> (after the n-th learning of a promotion is written).
#pragma once

#include <string_view>

#include "lore/error.h"

namespace lore::consolidate {

using TestHookFn = Status (*)(std::string_view point);

namespace internal {
extern TestHookFn installed_test_hook;
}  // namespace internal

// Installs `fn` as the hook (nullptr removes it). For test builds only.
void SetTestHook(TestHookFn fn);

// True when a hook is installed (callers skip work that only feeds it).
inline bool TestHookInstalled() { return internal::installed_test_hook != nullptr; }

// Runs the installed hook for `point`; OK when none is installed. A hook's
// `fail` action returns an Error.
inline Status TestHook(std::string_view point) {
  return internal::installed_test_hook ? internal::installed_test_hook(point) : Ok();
}

}  // namespace lore::consolidate
