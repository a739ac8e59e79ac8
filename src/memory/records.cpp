#include "lore/memory/records.h"

#include <fcntl.h>

#include <chrono>
#include <set>

#include "doc/slug.h"
#include "fs/atomic_file.h"
#include "lore/consolidate/staging.h"
#include "lore/fs/fd.h"
#include "lore/lint/scan.h"
#include "lore/store/store_lock.h"

namespace lore::memory {
namespace {

using doc::Kind;

bool SlugFits(Kind kind, std::string_view slug) {
  return kind == Kind::kSummary ? slug == doc::kSummarySlug : doc::IsValidSlug(slug);
}

// The path shown in findings for a slug that cannot be used as a path.
std::string ShownPath(const std::string& root, Kind kind, std::string_view slug) {
  return fs::Join(root, std::string(doc::KindDir(kind)) + "/" + std::string(slug) + ".md");
}

// The store lock (store/store_lock.h), held while a write runs. A
// consolidation journal left in the store means a commit died half applied:
// writing now could be undone when it is rolled forward, so nothing is
// written until it is finished (lore status does that; the CLI's record
// verbs do it before they start).
Result<store::StoreLock> LockStore(const std::string& root) {
  LORE_ASSIGN(store::StoreLock lock,
              store::StoreLock::Acquire(root, fs::LockMode::kExclusive, store::kStoreLockTimeout));
  std::string journal =
      fs::Join(fs::Join(root, consolidate::kStagingDir), consolidate::kJournalName);
  if (fs::Exists(journal)) {
    return Fail(ErrorCode::kBusy, "an interrupted consolidation commit is not finished", journal, 0,
                "run 'lore status <repo>' to finish it, then retry");
  }
  return lock;
}

// Creates the record's folder (refusing symlinks on the way).
Status MakeRecordDir(const std::string& root, Kind kind) {
  std::string dir = root;
  std::string_view rest = doc::KindDir(kind);
  while (!rest.empty()) {
    size_t slash = rest.find('/');
    dir = fs::Join(dir, rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    LORE_TRY(fs::RefuseSymlink(dir, "record folder"));
    LORE_TRY(fs::MakeDirs(dir, 0700));
  }
  return Ok();
}

std::optional<std::string> ReplacedByOf(const std::string& root, Kind kind,
                                        const std::string& slug) {
  auto rec = Read(root, kind, slug);
  if (!rec || !rec->fields.replaced_by) return std::nullopt;
  return rec->fields.replaced_by;
}

// Lints `text` for `path` and writes it when the linter allows. Runs under
// the store lock; `current` is the file's text when it exists.
Result<Outcome> LintAndWrite(const std::string& root, Kind kind, std::string_view slug,
                             const std::string& path, lint::Op op, std::string_view text,
                             const std::optional<std::string>& current) {
  Outcome out;
  out.path = path;
  // Private spans and secrets never reach the store (docs/secrets.md): every
  // frontmatter key and value and the body are cleaned, and the linter reads
  // the record as it will be written.
  auto parsed = doc::ParseRecord(kind, text, path);
  std::string cleaned;
  if (parsed && doc::CleanRecord(*parsed)) {
    cleaned = doc::RenderRecord(*parsed);
    text = cleaned;
    parsed = doc::ParseRecord(kind, text, path);
  }
  std::optional<std::string> by;
  if (parsed) by = parsed->fields.replaced_by;
  LORE_ASSIGN(lint::StoreView view, ViewForWrite(root, kind, by));
  out.report = lint::LintParsed(lint::Target{kind, std::string(slug), path, op}, parsed, view);
  if (out.report.HasErrors() || kind == Kind::kWorkflow) return out;
  if (current && *current == text) return out;
  LORE_TRY(MakeRecordDir(root, kind));
  LORE_TRY(fs::WriteFileAtomic(path, text, 0600));
  out.written = true;
  return out;
}

// Lints without writing or locking: a slug that cannot be a path, or a
// workflow (refused; the folders are only listed so that the other findings
// are true).
Outcome LintOnly(const std::string& root, Kind kind, std::string_view slug, lint::Op op,
                 std::string_view text) {
  Outcome out;
  out.path = ShownPath(root, kind, slug);
  lint::StoreView view;
  if (SlugFits(kind, slug)) {
    if (auto v = ViewForWrite(root, kind, std::nullopt)) view = std::move(*v);
  }
  out.report = lint::LintText(lint::Target{kind, std::string(slug), out.path, op}, text, view);
  return out;
}

Result<std::optional<std::string>> CurrentText(const std::string& root, Kind kind,
                                               std::string_view slug) {
  auto text = ReadText(root, kind, slug);
  if (text) return std::optional<std::string>(std::move(*text));
  if (text.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
  return tl::unexpected(text.error());
}

Error NoSuchRecord(const std::string& path, Kind kind) {
  return Error{ErrorCode::kNotFound, "no such " + std::string(doc::KindName(kind)), path, 0,
               "check the slug, or create the record with 'lore memory write'"};
}

}  // namespace

Result<std::string> RecordPath(const std::string& root, Kind kind, std::string_view slug) {
  if (!SlugFits(kind, slug)) {
    return Fail(ErrorCode::kInvalidInput,
                std::string("slug '").append(slug).append("' is not valid"),
                ShownPath(root, kind, slug), 0,
                kind == Kind::kSummary ? "the summary's slug is 'summary'"
                                       : std::string("use ") + doc::kSlugRule);
  }
  return fs::Join(root, doc::RelPath(kind, slug));
}

Result<std::string> ReadText(const std::string& root, Kind kind, std::string_view slug) {
  LORE_ASSIGN(std::string path, RecordPath(root, kind, slug));
  // Beneath the store: a symlinked memory/ or memory/decisions/ is refused.
  auto text = fs::ReadFileBeneath(root, doc::RelPath(kind, slug), fs::Kind::kRecord);
  if (!text && text.error().code == ErrorCode::kNotFound)
    return tl::unexpected(NoSuchRecord(path, kind));
  return text;
}

Result<doc::Record> Read(const std::string& root, Kind kind, std::string_view slug) {
  LORE_ASSIGN(std::string text, ReadText(root, kind, slug));
  return doc::ParseRecord(kind, text, fs::Join(root, doc::RelPath(kind, slug)));
}

Result<lint::StoreView> ViewForWrite(const std::string& root, Kind kind,
                                     const std::optional<std::string>& replaced_by) {
  lint::StoreView view;
  LORE_ASSIGN(auto slugs, lint::ListSlugs(root, kind));
  for (auto& s : slugs) view.Add(kind, std::move(s));
  if (kind == Kind::kWorkflow) {
    LORE_ASSIGN(auto pages, lint::ListSlugs(root, Kind::kKnowledge));
    for (auto& s : pages) view.Add(Kind::kKnowledge, std::move(s));
  }
  std::set<std::string> seen;
  std::optional<std::string> next = replaced_by;
  while (next && view.Has(kind, *next) && seen.insert(*next).second) {
    auto after = ReplacedByOf(root, kind, *next);
    view.Add(kind, *next, lint::RecordRef{after.value_or("")});
    next = after;
  }
  return view;
}

Result<Outcome> Write(const std::string& root, Kind kind, std::string_view slug,
                      std::string_view text) {
  if (!SlugFits(kind, slug) || kind == Kind::kWorkflow) {
    return LintOnly(root, kind, slug, lint::Op::kCreate, text);
  }
  LORE_ASSIGN(store::StoreLock lock, LockStore(root));
  LORE_ASSIGN(std::string path, RecordPath(root, kind, slug));
  LORE_ASSIGN(auto current, CurrentText(root, kind, slug));
  return LintAndWrite(root, kind, slug, path, lint::Op::kCreate, text, current);
}

Result<Outcome> EditText(const std::string& root, Kind kind, std::string_view slug,
                         std::string_view text) {
  if (!SlugFits(kind, slug) || kind == Kind::kWorkflow) {
    return LintOnly(root, kind, slug, lint::Op::kUpdate, text);
  }
  LORE_ASSIGN(store::StoreLock lock, LockStore(root));
  LORE_ASSIGN(std::string path, RecordPath(root, kind, slug));
  LORE_ASSIGN(auto current, CurrentText(root, kind, slug));
  if (!current) return tl::unexpected(NoSuchRecord(path, kind));
  return LintAndWrite(root, kind, slug, path, lint::Op::kUpdate, text, current);
}

Result<Outcome> Edit(const std::string& root, Kind kind, std::string_view slug,
                     const Change& change) {
  LORE_ASSIGN(std::string path, RecordPath(root, kind, slug));
  std::optional<store::StoreLock> lock;
  if (kind != Kind::kWorkflow) {
    LORE_ASSIGN(store::StoreLock held, LockStore(root));
    lock.emplace(std::move(held));
  }
  LORE_ASSIGN(auto current, CurrentText(root, kind, slug));
  if (!current) return tl::unexpected(NoSuchRecord(path, kind));
  auto rec = doc::ParseRecord(kind, *current, path);
  if (!rec) {
    Error e = rec.error();
    e.repair += "; or give the whole corrected record to 'lore memory edit' on standard input";
    return tl::unexpected(e);
  }
  LORE_TRY(change(*rec));
  std::string text = doc::RenderRecord(*rec);
  if (kind == Kind::kWorkflow) return LintOnly(root, kind, slug, lint::Op::kUpdate, text);
  return LintAndWrite(root, kind, slug, path, lint::Op::kUpdate, text, current);
}

Result<Outcome> Replace(const std::string& root, Kind kind, std::string_view slug,
                        std::string_view by, text::TimePoint now) {
  if (kind == Kind::kSummary) {
    return Fail(ErrorCode::kInvalidInput, "the summary cannot be replaced",
                fs::Join(root, doc::RelPath(kind, slug)), 0,
                "rewrite it with 'lore memory edit' instead");
  }
  std::string by_slug(by);
  return Edit(root, kind, slug, [&](doc::Record& r) -> Status {
    LORE_TRY(doc::SetFieldText(r, "status", "replaced"));
    LORE_TRY(doc::SetFieldText(r, "replaced_by", by_slug));
    return doc::SetFieldText(r, "updated_at", text::UtcSeconds(now));
  });
}

}  // namespace lore::memory
