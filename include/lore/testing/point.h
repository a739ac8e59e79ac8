// Test points: named places where a test may pause, fail or kill lore. This
// header is their catalogue: every point lore has is a constant below, with
// where it fires.
//
// The library calls Point() at each; it runs the hook installed with SetHook.
// None is installed in the shipped `lore`, `lore-llm`, `lore-team` and
// `lore-archive`, so there Point() is one load of a null pointer and
// LORE_TEST_HOOK means nothing. The test builds (`lore-test`, and the unit
// tests) link tests/support/env_test_hook.cpp, which installs a hook that
// reads the environment variable
//
//   LORE_TEST_HOOK=<point>:<action>[,<point>:<action>...]
//   action: pause=<ms> | wait=<file> (until the file exists; two minutes at
//           most) | crash (SIGKILL to itself) | fail (the point fails)
//
// Tests hold a run with wait= and release it by creating the file once they
// have checked what they need, so that no check depends on the machine's speed.
#pragma once

#include <cstdint>
#include <string_view>

#include "lore/error.h"

namespace lore::testing {

// A consolidation run, in the order it reaches them (consolidate/runner.cpp,
// consolidate/journal.cpp):
inline constexpr std::string_view kAfterLock = "after-lock";          // the run lock is held
inline constexpr std::string_view kAfterSnapshot = "after-snapshot";  // the inputs are read
inline constexpr std::string_view kBeforeCommit = "before-commit";  // engine done, nothing written
inline constexpr std::string_view kMidCommit =
    "mid-commit";  // journal written, first file in place
inline constexpr std::string_view kAfterCommit = "after-commit";  // the journal is removed
// Before each request to the model, of a consolidation or an extract
// (llm/llm_engine.cpp, llm/extract_engine.cpp):
inline constexpr std::string_view kLlmTurn = "llm-turn";
// `lore extract` (extract/extract.cpp): after the cursor's pending range is
// written, and after the tentative entry is staged.
inline constexpr std::string_view kExtractAfterPending = "extract-after-pending";
inline constexpr std::string_view kExtractAfterStage = "extract-after-stage";
// A promotion (learnings/update.cpp, for `lore review` and `lore-team`): the
// point "after-learning-<n>" fires after the n-th learning is durably written.
inline constexpr std::string_view kAfterLearningPrefix = "after-learning-";
// A review (proposals/review.cpp): between the archive append and the queue's
// replacement.
inline constexpr std::string_view kReviewAfterArchive = "review-after-archive";
// `lore learnings prune` (learnings/update.cpp): between the archive append
// and the rewrite of learnings.jsonl.
inline constexpr std::string_view kLearningsPruneAfterArchive = "learnings-prune-after-archive";

using HookFn = Status (*)(std::string_view point);

namespace internal {
extern HookFn installed_hook;
}  // namespace internal

// Installs `fn` as the hook (nullptr removes it) and returns the one it
// replaces. For test builds only.
HookFn SetHook(HookFn fn);

// True when a hook is installed.
inline bool Active() { return internal::installed_hook != nullptr; }

// Runs the installed hook at `point`; OK when none is installed. A hook's
// `fail` action returns an Error.
inline Status Point(std::string_view point) {
  return internal::installed_hook ? internal::installed_hook(point) : Ok();
}

// Point(prefix + n), the name built only when a hook is installed.
Status NumberedPoint(std::string_view prefix, int64_t n);

}  // namespace lore::testing
