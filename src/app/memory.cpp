#include "lore/app/memory.h"

#include <chrono>

#include "lore/app/recall.h"
#include "lore/consolidate/runner.h"
#include "lore/fs/fd.h"

namespace lore::app {
namespace {

// Finishes a consolidation commit that died half applied; what it says (or
// why it could not) is a warning: the record operation still runs.
std::vector<Error> FinishCommitBeforeWrite(const store::Store& store) {
  auto recovered = consolidate::RecoverIfIdle(store);
  if (!recovered) return {recovered.error()};
  return std::move(*recovered);
}

// A change of a record in a store not made yet: the record's "no such <kind>".
Error MissingRecord(const store::Store& store, doc::Kind kind, std::string_view slug) {
  auto text = memory::ReadText(store.dir(), kind, slug);
  return text ? Error{ErrorCode::kInternal, "store vanished", store.dir(), 0, ""} : text.error();
}

// Runs `op` on an existing store, after finishing an interrupted commit.
RecordChange ChangeExisting(const store::Store& store, doc::Kind kind, std::string_view slug,
                            const std::function<Result<memory::Outcome>()>& op) {
  RecordChange out;
  if (!fs::Exists(store.dir())) {
    out.outcome = Fail(MissingRecord(store, kind, slug));
    return out;
  }
  out.warnings = FinishCommitBeforeWrite(store);
  out.outcome = op();
  return out;
}

}  // namespace

Result<RecordName> NameRecord(std::string_view kind, std::string_view slug) {
  auto k = doc::ParseKind(kind);
  if (!k) {
    return Fail(ErrorCode::kInvalidInput,
                "unknown kind '" + std::string(kind) +
                    "'; use summary, decision, request, knowledge or workflow");
  }
  RecordName name{*k, std::string(slug)};
  if (name.slug.empty() && *k == doc::Kind::kSummary) name.slug = doc::kSummarySlug;
  if (name.slug.empty()) {
    std::string k_name(doc::KindName(*k));
    return Fail(ErrorCode::kInvalidInput,
                "a " + k_name + " needs a slug: lore memory <verb> <repo> " + k_name + " <slug>");
  }
  return name;
}

Result<std::string> ReadRecord(const store::Store& store, doc::Kind kind, std::string_view slug) {
  return memory::ReadText(store.dir(), kind, slug);
}

Result<NamedRecord> ReadNamedRecord(const store::Store& store, std::string_view kind,
                                    std::string_view slug, std::string_view via,
                                    text::TimePoint now) {
  NamedRecord out;
  auto parsed = doc::ParseKind(kind);
  if (!parsed) {
    out.status = NamedRecord::Status::kUnknownKind;
    return out;
  }
  out.slug = *parsed == doc::Kind::kSummary ? std::string(doc::kSummarySlug) : std::string(slug);
  if (out.slug.empty()) {
    out.status = NamedRecord::Status::kNoSlug;
    return out;
  }
  LORE_ASSIGN(out.text, ReadRecord(store, *parsed, out.slug));
  out.kind = std::string(doc::KindName(*parsed));
  const std::string rel = doc::RelPath(*parsed, out.slug);
  out.path = store.Path(rel);
  CountUse(store, {rel}, /*opened=*/true, via, now);
  return out;
}

RecordChange WriteRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                         const std::string& text) {
  RecordChange out;
  if (auto made = store.Ensure(std::chrono::system_clock::now(), store::RawCheck::kSkip); !made) {
    out.outcome = Fail(made.error());
    return out;
  }
  out.warnings = FinishCommitBeforeWrite(store);
  out.outcome = memory::Write(store.dir(), kind, slug, text);
  return out;
}

RecordChange EditRecordText(const store::Store& store, doc::Kind kind, std::string_view slug,
                            const std::function<Result<std::string>()>& text) {
  return ChangeExisting(store, kind, slug, [&]() -> Result<memory::Outcome> {
    LORE_ASSIGN(std::string input, text());
    return memory::EditText(store.dir(), kind, slug, input);
  });
}

RecordChange EditRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                        const std::function<lore::Status(doc::Record&)>& change) {
  return ChangeExisting(store, kind, slug,
                        [&] { return memory::Edit(store.dir(), kind, slug, change); });
}

RecordChange ReplaceRecord(const store::Store& store, doc::Kind kind, std::string_view slug,
                           std::string_view by, text::TimePoint now) {
  return ChangeExisting(store, kind, slug,
                        [&] { return memory::Replace(store.dir(), kind, slug, by, now); });
}

}  // namespace lore::app
