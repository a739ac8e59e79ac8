// Internal to lore::archive: an import's knowledge pages and learnings
// turned into proposals before the store is swapped in (propose_imported.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/text/time.h"

namespace lore::archive {

// Where an import keeps what it turned into proposals, whole, in the store.
inline constexpr std::string_view kImportedFolder = "imported";

struct ProposedImport {
  int64_t pages = 0;      // knowledge pages queued
  int64_t learnings = 0;  // learnings queued
};

// In the unpacked store `temp`: every knowledge/*.md page and every learning
// of learnings.jsonl (a line with a subject and an insight) becomes a
// proposal appended to the store's queue (wave "import", proposed by "lore
// import"), and the files themselves move to imported/ (kept whole, read by
// nothing that reaches an agent). `archive` names the archive in the
// proposals' evidence.
Result<ProposedImport> ProposeImported(const std::string& temp, const std::string& archive,
                                       text::TimePoint now);

}  // namespace lore::archive
