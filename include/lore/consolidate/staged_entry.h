// A staged entry: one activity extract awaiting consolidation
// (`staging/<uuidv7>.json`, FORMATS.md section 5).
//
//   {"source": {"session_id": "s1", "range": [12, 40]},
//    "decisions":   [{"options": ["a", "b"], "chosen": "b", "rationale": "..."}],
//    "discussions": [{"topic": "...", "points": ["...", "..."]}],
//    "attempts":    [{"action": "...", "result": "...", "succeeded": false}],
//    "requests":    [{"intent": "...", "target": "...", "summary": "..."}]}
//
// Every list may be empty or absent; `target` may be absent or null.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/doc/record.h"
#include "lore/error.h"

namespace lore::consolidate {

struct StagedDecision {
  std::vector<std::string> options;
  std::string chosen;
  std::string rationale;
};

struct StagedDiscussion {
  std::string topic;
  std::vector<std::string> points;
};

struct StagedAttempt {
  std::string action;
  std::string result;
  bool succeeded = false;
};

struct StagedRequest {
  std::string intent;
  std::optional<std::string> target;
  std::string summary;
};

struct StagedEntry {
  doc::Source source;
  std::vector<StagedDecision> decisions;
  std::vector<StagedDiscussion> discussions;
  std::vector<StagedAttempt> attempts;
  std::vector<StagedRequest> requests;
};

// Largest staged entry accepted, in bytes.
inline constexpr size_t kMaxStagedEntryBytes = 1 << 20;

// Parses and validates `text` (read from `path`, named in errors). An error
// names the offending field as a JSON path ("decisions[1].chosen") and what
// it must be. Unknown keys are errors (a typo would otherwise lose data);
// `segment_id` is read as `source.session_id`.
Result<StagedEntry> ParseStagedEntry(std::string_view text, const std::string& path);

// The canonical file contents: compact JSON, keys in the order above, every
// list present, `target` only when set, a final newline.
std::string RenderStagedEntry(const StagedEntry& entry);

}  // namespace lore::consolidate
