// `lore propose` and MCP `propose_learning` (docs/proposals.md) as one use
// case: the flags checked, the store's settings with the proposal's own
// overrides, and the proposal queued (or, dry, what would happen). Each
// front end renders the result in its own words.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/proposals/propose_input.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

struct ProposeRequest {
  proposals::ProposeFlags flags;
  std::string env_wave;  // the wave when flags.wave is absent (LORE_WAVE)
  bool dry_run = false;
};

struct Proposed {
  enum class Status {
    kInvalid,        // `errors` says why; no store was opened
    kDisabled,       // memory.proposals.enabled = false in `config_path`
    kNoWave,         // neither flags.wave nor env_wave
    kDryRun,         // valid; nothing written
    kBelowFloor,     // confidence under `floor` (counted unless dry)
    kQueued,         // `id` at `position` of `quota` in its wave
    kQuotaExceeded,  // the wave is full: `dropped` so far
    kAlreadyQueued,  // a pending proposal (`id`) has the same type, subject and insight
  };
  Status status = Status::kInvalid;
  std::vector<std::string> errors;
  proposals::Fields fields;  // as checked: type, subject, wave, confidence, ...
  std::string config_path;
  std::string id;
  int64_t position = 0;
  int64_t quota = 0;
  int64_t dropped = 0;
  double floor = 0;
  std::optional<Error> warning;  // a stale write lock of a dead process was taken over
};

// The types a proposal may have (--type), in the order help lists them.
const std::vector<std::string_view>& ProposalTypes();

// Checks the request and, when it is valid, opens the store with `locate`
// and queues the proposal there, unless a pending one has the same type,
// subject and insight (each compared as learnings::NormaliseSubject leaves
// it: case and runs of white space aside): nothing is appended then.
Result<Proposed> Propose(const ProposeRequest& request,
                         const std::function<Result<store::Store>()>& locate, text::TimePoint now);

// What a proposal's fields may hold, for a front end that describes them
// (MCP's input schema): the most code points of
// the subject, the insight and the evidence (the types: ProposalTypes).
struct ProposalLimits {
  size_t subject_max = 0;
  size_t insight_max = 0;
  size_t evidence_max = 0;
};
ProposalLimits ProposalFieldLimits();

// The wave of the UTC day of `now` for the proposals made through `door`
// without one ("<door>-YYYYMMDD"), so that the per-wave quota bounds what an
// agent can queue, and when that day ends (the quota resets), in UTC
// seconds ("YYYY-MM-DDT00:00:00Z").
struct DayWave {
  std::string id;
  std::string ends_at;
};
DayWave WaveOfDay(std::string_view door, text::TimePoint now);

}  // namespace lore::app
