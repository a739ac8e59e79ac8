// `lore memory read|write|edit|replace` and the MCP `memory_read` tool: the
// record operations of memory/records.h on a located store (docs/records.md).
// A change first finishes a consolidation commit that died half applied (one
// stat when there is none), so that the write is not refused for it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/doc/kind.h"
#include "lore/doc/record.h"
#include "lore/error.h"
#include "lore/memory/records.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// A record's file exactly as it is.
Result<std::string> ReadRecord(const store::Store& store, doc::Kind kind, std::string_view slug);

// MCP memory_read: a record named as an agent names it, by the name of its
// kind (ParseKind's: "decision", "decisions", ...) and its slug (the
// summary's is its own: `slug` is not read for it), read whole and counted
// as opened (via `via`). Nothing is read for an unknown kind (kUnknownKind)
// or a missing slug (kNoSlug).
struct NamedRecord {
  enum class Status { kRead, kUnknownKind, kNoSlug };
  Status status = Status::kRead;
  std::string kind;  // the kind's own name ("decision")
  std::string slug;
  std::string path;  // the record's file
  std::string text;
};
Result<NamedRecord> ReadNamedRecord(const store::Store& store, std::string_view kind,
                                    std::string_view slug, std::string_view via,
                                    text::TimePoint now);

// What a change did: the warnings to show first (what finishing an
// interrupted commit said), then the outcome or why there is none.
struct RecordChange {
  std::vector<Error> warnings;
  Result<memory::Outcome> outcome = memory::Outcome{};
};

// Creates record `slug` from `text`; the store is made when missing.
RecordChange WriteRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                         const std::string& text);

// Changes an existing record: its whole new text, asked of `text` once the
// store is known to exist (a missing store is the record's "no such" first),
// or `change` applied to it.
RecordChange EditRecordText(const store::Store& store, doc::Kind kind, std::string_view slug,
                            const std::function<Result<std::string>()>& text);
RecordChange EditRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                        const std::function<lore::Status(doc::Record&)>& change);

// Marks record `slug` replaced by record `by` at `now`.
RecordChange ReplaceRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                           std::string_view by, text::TimePoint now);

}  // namespace lore::app
