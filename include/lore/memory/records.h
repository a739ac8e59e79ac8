// Record operations: read, write (create), edit (update), replace. The CLI
// verbs `lore memory ...` and the consolidation worker both call these.
//
// Every function takes `root`, a store directory (store::Store::dir()) or a
// scratch copy of one, so a caller can apply a batch of operations to a copy
// and swap it in all at once. Writes lint the record first (lint/lint.h) and
// change nothing when the linter reports an error; they are atomic
// (fs::WriteFileAtomic) and serialised by the store lock on `root`
// (store/store_lock.h), which consolidation commits take too. While a
// consolidation journal is left in the store (a commit that died half
// applied), writes are refused (kBusy) until it is rolled forward. Nothing is
// ever deleted, and nothing under memory/workflow/ is ever written.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "lore/doc/kind.h"
#include "lore/doc/record.h"
#include "lore/error.h"
#include "lore/lint/lint.h"
#include "lore/text/time.h"

namespace lore::memory {

// <root>/<RelPath(kind, slug)>. kInvalidInput when `slug` is not a valid
// slug (the summary's slug is "summary").
Result<std::string> RecordPath(const std::string& root, doc::Kind kind, std::string_view slug);

// The record file's exact bytes; kNotFound when there is no such record.
Result<std::string> ReadText(const std::string& root, doc::Kind kind, std::string_view slug);
// The parsed record; kCorrupt (naming the line) when its frontmatter does not
// parse.
Result<doc::Record> Read(const std::string& root, doc::Kind kind, std::string_view slug);

// The result of a write. An Error (the Result's) means lore could not do the
// operation at all (I/O, no such record, lock busy); a report with errors
// means the linter refused the record, and nothing was changed.
struct Outcome {
  std::string path;      // the record's file
  lint::Report report;   // every finding, warnings included
  bool written = false;  // false when refused, or when the file already held these bytes
  bool ok() const { return !report.HasErrors(); }
};

// Creates record `slug` from `text` (frontmatter and body, written byte for
// byte). Creating a slug that exists is a linter error (slug-exists).
Result<Outcome> Write(const std::string& root, doc::Kind kind, std::string_view slug,
                      std::string_view text);

// Replaces the whole text of the existing record `slug` (kNotFound if none).
Result<Outcome> EditText(const std::string& root, doc::Kind kind, std::string_view slug,
                         std::string_view text);

// Reads record `slug`, lets `change` modify it (an error from `change`
// aborts), and writes it back; fields the change did not touch keep their
// text (doc::RenderRecord). kCorrupt when the record does not parse.
using Change = std::function<Status(doc::Record&)>;
Result<Outcome> Edit(const std::string& root, doc::Kind kind, std::string_view slug,
                     const Change& change);

// Marks record `slug` superseded: status: replaced, replaced_by: `by`,
// updated_at: `now`. The linter checks that `by` exists and that no cycle
// forms. The summary cannot be replaced (kInvalidInput).
Result<Outcome> Replace(const std::string& root, doc::Kind kind, std::string_view slug,
                        std::string_view by, text::TimePoint now);

// The linter's view for writing a record of `kind` whose replaced_by is
// `replaced_by`: the slugs of that kind (and knowledge, for workflows), and
// the replaced_by of every record on the chain from `replaced_by`.
Result<lint::StoreView> ViewForWrite(const std::string& root, doc::Kind kind,
                                     const std::optional<std::string>& replaced_by);

}  // namespace lore::memory
