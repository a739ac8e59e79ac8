// Phase 1: `lore extract` (docs/extract.md). Streams an agent transcript from
// the line after the session's cursor to its last complete line through an
// engine, stages one entry (consolidate::Stage) with `source` set from the
// line numbers, and moves the cursor.
//
// Crash safety: the cursor records the range as pending before the entry is
// staged and clears it after. A run that finds a pending range looks for an
// entry of that session and range in staging (or one a consolidation consumed
// since), advances past it when found, and extracts it again when not: every
// line is staged once, with no gap and no overlap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/extract/engine.h"
#include "lore/log/line_stream.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::extract {

// The longest transcript line held (a longer one, a `Read` of a big file or
// a pasted image, is counted `oversized` and skipped unread).
inline constexpr size_t kMaxTranscriptLineBytes = size_t{4} << 20;  // 4 MiB

struct Options {
  std::string transcript;  // its path
  // Empty: the transcript's sessionId, else the file's stem. Whichever is
  // taken passes the gate of session ids (activity::CheckSessionId): one it
  // refuses is an Error (a line's sessionId it refuses is passed over).
  std::string session;
  bool dry_run = false;
  text::TimePoint now;
  log::StreamLimits limits{log::kScanChunkBytes, kMaxTranscriptLineBytes};
};

struct Counts {
  int64_t lines = 0;      // complete lines read this run
  int64_t used = 0;       // lines that gave events
  int64_t skipped = 0;    // lines with nothing to extract (all below but `used`)
  int64_t harness = 0;    // user lines written by the harness
  int64_t unknown = 0;    // unknown line types
  int64_t malformed = 0;  // not JSON, invalid UTF-8, not an object
  int64_t oversized = 0;  // longer than the held-line bound
  int64_t sidechain = 0;  // subagent lines
};

struct Outcome {
  std::string status;  // "staged", "nothing-new" or "dry-run"
  std::string session_id;
  int64_t first = 0, last = 0;  // the range read (0, 0 when none)
  std::string staged_id;
  std::string entry;      // the rendered entry (staged or, for a dry run, printed)
  std::string restarted;  // why the cursor was dropped, when it was
  std::string recovered;  // what a run that died left: "published", "staged" or "retried"
  // The transcript lines logged again because the session log had lost them
  // (its tail cut, moved into quarantine/ or the log removed): 0, 0 when none.
  int64_t restored_first = 0, restored_last = 0;
  Counts counts;
  int64_t logged = 0;      // events appended to the session log
  uint64_t log_bytes = 0;  // the bytes they take
};

Result<Outcome> Extract(const store::Store& store, const Options& options, Engine& engine);

// The one JSON line `lore extract` prints.
std::string OutcomeJson(const Outcome& outcome, bool with_entry);

// The session id of `transcript` as Extract would choose it (`flag`: what
// --session gave), through the gate of session ids.
Result<std::string> SessionOf(const std::string& transcript, const std::string& flag);

// `lore extract --rebuild`: stages again, from the session logs alone (the
// transcripts may be long gone), one entry per span of each log (the lines
// one extract read), with the rules engine as it is now. The sources are the
// original ones, so a consolidation of the new entries updates what the old
// ones made rather than adding to it. `session` (when not empty) limits it
// to that session.
struct RebuildOutcome {
  int64_t sessions = 0, spans = 0, staged = 0;
  std::vector<std::string> staged_ids;
};
Result<RebuildOutcome> Rebuild(const store::Store& store, const std::string& session,
                               text::TimePoint now);
std::string RebuildJson(const RebuildOutcome& outcome);

// A failed extract (the hooks run it detached, where nobody reads its
// stderr) leaves `extract/.failed.json` {"at", "session_id", "error"},
// removed by the next extract that succeeds: `lore status` and the next
// SessionStart context say that memory may be stale, and why.
struct ExtractFailure {
  std::string at, session_id, error;
};
Status RecordExtractFailure(const store::Store& store, const std::string& session_id,
                            const Error& error, text::TimePoint now);
Status ClearExtractFailure(const store::Store& store);
Result<std::optional<ExtractFailure>> LastExtractFailure(const store::Store& store);

// The last extract's outcome, whatever it was, in `extract/.last.json`
// {"at", "session_id", "engine", "outcome", "error"}: outcome is "staged",
// "nothing-new" or "failed" (error "" unless failed). `lore status` shows it.
struct ExtractRecord {
  std::string at, session_id, engine, outcome, error;
};
Status RecordLastExtract(const store::Store& store, const ExtractRecord& record);
Result<std::optional<ExtractRecord>> LastExtract(const store::Store& store);

// The tokens the model runs of one UTC day used (extractions, consolidations
// and digests together), counted from the providers' usage fields, in
// `extract/.model-usage.json` {"day", "tokens", "runs"}: what
// llm.max_tokens_per_day is checked against and `lore status` shows. A
// record of another day reads as none.
struct ModelUsage {
  std::string day;  // YYYY-MM-DD
  int64_t tokens = 0;
  int64_t runs = 0;
};
Result<ModelUsage> ReadModelUsage(const store::Store& store, text::TimePoint now);
// Adds one run's tokens to its day's record, under a lock.
Status AddModelUsage(const store::Store& store, int64_t tokens, text::TimePoint now);

// Bytes the transcript holds past the session's cursor (its whole size when
// never extracted or replaced since), for the Stop hook. Cheap: one stat,
// one small read.
Result<uint64_t> Growth(const store::Store& store, const std::string& transcript,
                        const std::string& session);

}  // namespace lore::extract
