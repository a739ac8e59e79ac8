// An extraction engine turns a transcript's events into the four lists of a
// staged entry (docs/consolidation.md). The caller streams the events in
// transcript order, then asks for the lists; it sets `source` itself (the
// engine never chooses line numbers).
#pragma once

#include <string_view>

#include "lore/consolidate/staged_entry.h"
#include "lore/error.h"
#include "lore/extract/transcript.h"

namespace lore::extract {

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;
  // One event; an error ends the run (nothing is staged).
  virtual Status Take(const Event& event) = 0;
  // The folder the session runs in (its transcript's cwd), before the events it
  // holds: paths below it are said relative to it. The first one given counts.
  virtual void Checkout(std::string_view cwd) { (void)cwd; }
  // The lists; `source` is left empty.
  virtual Result<consolidate::StagedEntry> Finish() = 0;
};

// The bounds of one staged entry (docs/extract.md).
inline constexpr size_t kMaxItems = 20;       // per list
inline constexpr size_t kMaxPoints = 3;       // per discussion
inline constexpr size_t kMaxOptions = 6;      // per decision
inline constexpr size_t kShortExcerpt = 160;  // intent, topic, chosen, option (bytes)
inline constexpr size_t kLongExcerpt = 400;   // summary, rationale, point, action, result

// True when the entry has no item at all.
bool IsEmpty(const consolidate::StagedEntry& entry);

}  // namespace lore::extract
