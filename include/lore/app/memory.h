// `lore memory read|write|edit|replace` and the MCP `memory_read` tool: the
// record operations of memory/records.h on a located store (docs/records.md).
// A change first finishes a consolidation commit that died half applied (one
// stat when there is none), so that the write is not refused for it.
#pragma once

#include <functional>
#include <optional>
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

// A record as a front end names it: the kind's name ("summary", "decision",
// "request", "knowledge", "workflow") and its slug, which the summary's own
// stands in for when `slug` is empty. An Error (kInvalidInput) says which
// is wrong, in words for the command line.
struct RecordName {
  doc::Kind kind = doc::Kind::kDecision;
  std::string slug;
};
Result<RecordName> NameRecord(std::string_view kind, std::string_view slug);

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

// A record built or changed field by field instead of written whole (the
// flags of `lore memory write|edit`). Applied in this order: unset, set,
// source, the body, append, then (on an edit unless no_touch, or
// updated_at is set) updated_at = now. Errors name the flag and its value
// (`invalid --set status=bogus (...)`).
struct RecordEdits {
  std::vector<std::string> set;     // KEY=VALUE: a typed key takes a YAML value, text as is
  std::vector<std::string> unset;   // KEY
  std::vector<std::string> source;  // SESSION:FROM-TO or SESSION:N
  std::optional<std::string> body;  // the whole body
  std::string body_file;            // the body's file when `body` is not given; "-": read_stdin
  std::function<Result<std::string>()> read_stdin;  // standard input, whole
  std::string append;                               // a paragraph added to the body
  bool no_touch = false;                            // keep updated_at on an edit

  // True when any edit is given (unset and append count; no_touch alone not).
  bool Any() const;
};

// A new record of `kind` at `now` with `edits` applied, as its file's text.
Result<std::string> RecordTextFrom(doc::Kind kind, const RecordEdits& edits, text::TimePoint now);

// WriteRecord of the record RecordTextFrom builds, and EditRecord with
// `edits` applied (touching updated_at). In the outcome's report, a finding
// about a field given by `set` names that assignment (--set KEY=VALUE, line
// 0) instead of the record's file: the value is the caller's, not the file's.
RecordChange WriteRecordFrom(const store::Store& store, doc::Kind kind, std::string_view slug,
                             const RecordEdits& edits, text::TimePoint now);
RecordChange EditRecordWith(const store::Store& store, doc::Kind kind, std::string_view slug,
                            const RecordEdits& edits, text::TimePoint now);

// Marks record `slug` replaced by record `by` at `now`.
RecordChange ReplaceRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                           std::string_view by, text::TimePoint now);

}  // namespace lore::app
