// The knowledge-candidate report, `reports/knowledge-candidates.json`: the
// sources from which the LLM worker may create new knowledge. It is the
// output of a usage-metrics job outside lore; absent means empty. Accepted
// shapes (docs/consolidation.md):
//   {"candidates": [{"source": {"session_id": "s1", "range": [1, 9]}, ...}]}
//   {"candidates": [{"sources": [{...}, {...}], ...}]}
//   [{"source": {...}}, ...]
// Other keys of a candidate (reason, suggested slug, counts) are kept for
// the prompt and otherwise ignored.
#pragma once

#include <string>
#include <vector>

#include "lore/doc/record.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::consolidate {

inline constexpr std::string_view kCandidatesRel = "reports/knowledge-candidates.json";

struct CandidateReport {
  std::vector<doc::Source> sources;  // every source listed, in order
  std::string json;                  // the report as compact JSON ("[]" when absent)

  // True when a listed source has `s`'s session and a range overlapping it.
  bool Covers(const doc::Source& s) const;
};

// Reads the report of `store`. A missing file is an empty report; a file
// that is not one of the shapes above is an error naming it.
Result<CandidateReport> LoadCandidates(const store::Store& store);
Result<CandidateReport> ParseCandidates(std::string_view text, const std::string& path);

}  // namespace lore::consolidate
