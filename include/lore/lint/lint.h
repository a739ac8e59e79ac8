// The record linter (docs/records.md): a pure function over one record
// and a view of the store it would land in, reporting every violation at
// once. It does no I/O: the caller passes the store's state in as data
// (lint/scan.h and memory/records.h build it). Rules and messages:
// docs/records.md.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "lore/doc/kind.h"
#include "lore/doc/record.h"
#include "lore/lint/finding.h"

namespace lore::lint {

inline constexpr size_t kMaxBodyChars = 8000;
inline constexpr size_t kMaxSummaryBodyChars = 20000;
inline constexpr size_t kMaxDescriptionChars = 1024;  // when model_invokation is true
inline constexpr size_t kLargeBodyChars = 1500;       // warn with at most one source
inline constexpr size_t kMaxSources = 10;             // warn above
inline constexpr size_t kSimilarSlugDistance = 2;
inline constexpr size_t kSimilarSlugCluster = 3;  // slugs, the record's own included

// What is being linted: a record about to be created, an update of an
// existing one, or a record as it is on disk (`lore lint`).
enum class Op { kCreate, kUpdate, kCheck };

struct Target {
  doc::Kind kind = doc::Kind::kDecision;
  std::string slug;  // the file name without ".md" ("summary" for the summary)
  std::string path;  // named in every finding
  Op op = Op::kCheck;
};

// What the linter needs to know of a record already in the store.
struct RecordRef {
  std::string replaced_by;  // empty when none (or not known)
};

// The records of a store, per kind. For the replaced_by cycle check the view
// must hold the replaced_by of every record reachable from the linted one;
// the others only need their slug.
struct StoreView {
  std::array<std::map<std::string, RecordRef, std::less<>>, doc::kKindCount> records;

  bool Has(doc::Kind kind, std::string_view slug) const;
  const RecordRef* Find(doc::Kind kind, std::string_view slug) const;
  void Add(doc::Kind kind, std::string slug, RecordRef ref = {});
};

// Lints the parsed record `record` for `target`.
Report LintRecord(const Target& target, const doc::Record& record, const StoreView& view);
// Lints a parse result: a parse error becomes a "frontmatter" error, and the
// checks that need no content (slug, workflow, existing slug) still run.
Report LintParsed(const Target& target, const Result<doc::Record>& parsed, const StoreView& view);
// Parses `text` as a record of target.kind and lints it.
Report LintText(const Target& target, std::string_view text, const StoreView& view);

}  // namespace lore::lint
