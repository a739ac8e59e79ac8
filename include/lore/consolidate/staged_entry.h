// A staged entry: one activity extract awaiting consolidation
// (`staging/<uuidv7>.json`, docs/consolidation.md).
//
//   {"source": {"session_id": "s1", "range": [12, 40]},
//    "started_at": "2026-01-17T04:58:00Z", "ended_at": "2026-01-17T05:20:11Z",
//    "decisions":   [{"options": ["a", "b"], "chosen": "b", "rationale": "..."}],
//    "discussions": [{"topic": "...", "points": ["...", "..."]}],
//    "attempts":    [{"action": "...", "result": "...", "succeeded": false,
//                     "cause": "...", "fix": "...", "files": ["src/a.c"]}],
//    "requests":    [{"intent": "...", "target": "...", "summary": "..."}],
//    "outcomes":    [{"kind": "commit", "what": "...", "ok": true}]}
//
// Every list may be empty or absent; `target` may be absent or null. The
// keys lore added to seed 002's format are all optional, so that an entry of
// the original shape still reads: `started_at`/`ended_at` (the session's own
// time stamps of the range, RFC 3339), an attempt's `cause`, `fix` and
// `files` (an episode: the failure, the agent's diagnosis, what then
// worked), the `outcomes` list (commits, pushes, test and build runs), and
// on every item `lines` ([first, last] transcript lines of the item itself)
// and `at` (its time stamp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/doc/record.h"
#include "lore/error.h"

namespace lore::consolidate {

// Where one item of an entry comes from: its own transcript lines (within the
// entry's range) and its time stamp (RFC 3339 seconds). Both optional.
struct ItemOrigin {
  std::optional<doc::Range> lines;
  std::string at;
  bool operator==(const ItemOrigin&) const = default;
};

struct StagedDecision {
  std::vector<std::string> options;
  std::string chosen;
  std::string rationale;
  ItemOrigin origin;
};

struct StagedDiscussion {
  std::string topic;
  std::vector<std::string> points;
  ItemOrigin origin;
};

struct StagedAttempt {
  std::string action;
  std::string result;
  bool succeeded = false;
  std::string cause;               // the agent's diagnosis after the failure
  std::string fix;                 // the call that then worked
  std::vector<std::string> files;  // files the episode touched or named
  ItemOrigin origin;
};

struct StagedRequest {
  std::string intent;
  std::optional<std::string> target;
  std::string summary;
  ItemOrigin origin;
};

// What a session achieved or left: a commit, a push, a pull request, a test
// or build run, packages installed or removed.
struct StagedOutcome {
  std::string kind;  // commit | push | pr | test | build | install | remove
  std::string what;  // the commit message, the push target, the command
  bool ok = true;
  std::string detail;  // the result's telling line (counts, the rejection)
  ItemOrigin origin;
};

struct StagedEntry {
  doc::Source source;
  std::string started_at, ended_at;  // the range's first and last time stamps
  std::vector<StagedDecision> decisions;
  std::vector<StagedDiscussion> discussions;
  std::vector<StagedAttempt> attempts;
  std::vector<StagedRequest> requests;
  std::vector<StagedOutcome> outcomes;
};

// Largest staged entry accepted, in bytes.
inline constexpr size_t kMaxStagedEntryBytes = 1 << 20;

// Parses and validates `text` (read from `path`, named in errors). An error
// names the offending field as a JSON path ("decisions[1].chosen") and what
// it must be. Unknown keys are errors (a typo would otherwise lose data);
// `segment_id` is read as `source.session_id`.
Result<StagedEntry> ParseStagedEntry(std::string_view text, const std::string& path);

// The canonical file contents: compact JSON, keys in the order above, the
// four lists of seed 002 always present, `target`, the optional keys and
// `outcomes` only when set, a final newline.
std::string RenderStagedEntry(const StagedEntry& entry);

}  // namespace lore::consolidate
