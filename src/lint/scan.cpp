#include "lore/lint/scan.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <map>
#include <optional>
#include <thread>

#include "doc/slug.h"
#include "lint/rules.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "teamsync/records.h"

namespace lore::lint {
namespace {

bool EndsWithMd(std::string_view name) {
  return name.size() > 3 && name.substr(name.size() - 3) == ".md";
}

// Whether a listing includes the folders named "*.md": the linter reports
// them (a folder is no record), the list of slugs leaves them out.
enum class Folders { kInclude, kSkip };

// The "*.md" names of the entries of `root`/`rel` but folders (with kInclude,
// those too; hidden skipped), sorted; empty when the folder does not exist.
// No symlink is followed on the way (fs::ListDirBeneath).
Result<std::vector<std::string>> MarkdownFiles(const std::string& root, const std::string& rel,
                                               Folders folders) {
  LORE_TRY(fs::RefuseSymlink(fs::Join(root, rel), "record folder"));
  std::vector<std::string> names;
  LORE_ASSIGN(auto entries, fs::ListExisting(root, rel));
  for (const auto& e : entries) {
    std::string_view name = e.name;
    if (name.empty() || name.front() == '.' || !EndsWithMd(name)) continue;
    if (folders == Folders::kSkip && e.is_dir) continue;
    names.emplace_back(name);
  }
  return names;
}

std::string Stem(std::string_view name) { return std::string(name.substr(0, name.size() - 3)); }

// The files of one kind: (slug, path).
Result<std::vector<std::pair<std::string, std::string>>> KindFiles(const std::string& root,
                                                                   doc::Kind kind,
                                                                   Folders folders) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string dir = fs::Join(root, doc::KindDir(kind));
  if (kind == doc::Kind::kSummary) {
    LORE_TRY(fs::RefuseSymlink(dir, "record folder"));
    std::string path = fs::Join(root, doc::RelPath(kind, doc::kSummarySlug));
    if (fs::Exists(path)) out.emplace_back(std::string(doc::kSummarySlug), path);
    return out;
  }
  LORE_ASSIGN(auto names, MarkdownFiles(root, std::string(doc::KindDir(kind)), folders));
  for (const std::string& n : names) out.emplace_back(Stem(n), fs::Join(dir, n));
  return out;
}

Result<std::string> ReadRecordFile(const std::string& path) {
  LORE_ASSIGN(struct stat st, fs::LStat(path));
  if (S_ISLNK(st.st_mode)) {
    return Fail(ErrorCode::kSymlink, "record file is a symlink", path, 0,
                "replace the symlink with the real file (lore refuses symlinks in store paths)");
  }
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "record is not a regular file", path, 0,
                "move it out of the record folder");
  }
  return fs::ReadFile(path, fs::Kind::kRecord);
}

Status RequireDirectory(const std::string& root) {
  LORE_ASSIGN(struct stat st, fs::LStat(root));
  if (!S_ISDIR(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "store is not a directory", root, 0,
                "point lore at the store folder");
  }
  return Ok();
}

struct RecordFile {
  doc::Kind kind;
  std::string slug, path;
};

// Every "*.md" of the record folders, in kAllKinds order, then by name; a
// folder that cannot be listed goes to `problems`.
Result<std::vector<RecordFile>> ListRecordFiles(const std::string& root,
                                                std::vector<Error>* problems) {
  std::vector<RecordFile> out;
  for (doc::Kind kind : doc::kAllKinds) {
    auto files = KindFiles(root, kind, Folders::kInclude);
    if (!files) {
      problems->push_back(files.error());
      continue;
    }
    for (auto& [slug, path] : *files) out.push_back({kind, std::move(slug), std::move(path)});
  }
  return out;
}

// Whether a record is in the store's view: read, and named by a valid slug.
bool InView(doc::Kind kind, std::string_view slug, bool readable) {
  return readable && (kind == doc::Kind::kSummary || doc::IsValidSlug(slug));
}

// Stores of at least this many records are read by one thread per core.
constexpr size_t kParallelRecords = 512;

// One record once its own rules have run: their findings, and what the
// rules on the whole store (CheckTarget, CheckReferences) read of it.
struct Pending {
  doc::Kind kind = doc::Kind::kDecision;
  std::string slug, path;
  std::optional<Finding> unreadable;  // the record could not be read
  bool parsed = false;
  Report own;  // LintAlone's findings
  std::optional<std::string> status, replaced_by;
  std::optional<std::vector<std::string>> requirements;
  int64_t status_line = 0, replaced_by_line = 0, requires_line = 0;
};

int64_t LineOf(const doc::Record& r, const char* key) {
  auto it = r.lines.find(key);
  return it == r.lines.end() ? 0 : it->second;
}

Pending Summarise(doc::Kind kind, std::string slug, std::string path, bool readable,
                  const Result<doc::Record>& record) {
  Pending p;
  p.kind = kind;
  p.slug = std::move(slug);
  p.path = std::move(path);
  if (!readable) {
    const Error& e = record.error();
    p.unreadable = Finding{Severity::kError, "unreadable", p.path, 0, "", e.what, e.repair};
    return p;
  }
  Target t{kind, p.slug, p.path, Op::kCheck};
  p.own = record ? detail::LintAlone(t, &*record, nullptr)
                 : detail::LintAlone(t, nullptr, &record.error());
  if (!record) return p;
  const doc::Fields& f = record->fields;
  p.parsed = true;
  p.status = f.status;
  p.replaced_by = f.replaced_by;
  p.requirements = f.requirements;
  p.status_line = LineOf(*record, "status");
  p.replaced_by_line = LineOf(*record, "replaced_by");
  p.requires_line = LineOf(*record, "requires");
  return p;
}

// The record CheckReferences reads: the references and their lines only.
doc::Record References(const Pending& p) {
  doc::Record r;
  r.kind = p.kind;
  r.fields.status = p.status;
  r.fields.replaced_by = p.replaced_by;
  r.fields.requirements = p.requirements;
  if (p.status_line) r.lines["status"] = p.status_line;
  if (p.replaced_by_line) r.lines["replaced_by"] = p.replaced_by_line;
  if (p.requires_line) r.lines["requires"] = p.requires_line;
  return r;
}

// The store's findings: the folders that could not be listed, then each
// record's (LintWith's, in its order), then the team's conflicts.
Report Finish(const std::string& root, const std::vector<Error>& problems,
              const std::vector<Pending>& records, const StoreView& view) {
  Report out;
  std::array<std::map<std::string, detail::Near, std::less<>>, doc::kKindCount> near;
  for (doc::Kind kind : doc::kAllKinds) near[doc::KindIndex(kind)] = detail::NearSlugs(view, kind);
  static const detail::Near kNone;
  for (const Error& e : problems) {
    out.Add(Finding{Severity::kError, "unreadable", e.path, e.line, "", e.what, e.repair});
  }
  for (const Pending& p : records) {
    if (p.unreadable) {
      out.Add(*p.unreadable);
      continue;
    }
    Target t{p.kind, p.slug, p.path, Op::kCheck};
    const auto& kind_near = near[doc::KindIndex(p.kind)];
    auto it = kind_near.find(p.slug);
    detail::CheckTarget(t, view, out, it == kind_near.end() ? &kNone : &it->second);
    out.Append(p.own);
    if (p.parsed) detail::CheckReferences(detail::Ctx{t, References(p), view, out});
  }
  for (const auto& c : teamsync::ListConflicts(root)) {  // docs/team.md
    out.Add(Finding{Severity::kWarning, "team-conflict", fs::Join(root, c.copy_rel), 0, "",
                    c.record_rel + " changed here and on " + c.machine + " since the last sync",
                    "merge the two into " + c.record_rel +
                        " and delete this copy; the next 'lore "
                        "sync' pushes the result"});
  }
  return out;
}

}  // namespace

Result<std::vector<std::string>> ListSlugs(const std::string& root, doc::Kind kind) {
  LORE_ASSIGN(auto files, KindFiles(root, kind, Folders::kSkip));
  std::vector<std::string> slugs;
  for (auto& [slug, path] : files) {
    if (kind == doc::Kind::kSummary || doc::IsValidSlug(slug)) slugs.push_back(std::move(slug));
  }
  return slugs;
}

Result<LoadedStore> LoadStore(const std::string& root) {
  LORE_TRY(RequireDirectory(root));
  LoadedStore store;
  store.root = root;
  LORE_ASSIGN(auto files, ListRecordFiles(root, &store.problems));
  for (RecordFile& f : files) {
    LoadedRecord rec{
        f.kind, std::move(f.slug), std::move(f.path), {}, Fail(ErrorCode::kInternal, "not read"),
        false};
    if (auto text = ReadRecordFile(rec.path); !text) {
      rec.record = tl::unexpected(text.error());
    } else {
      rec.readable = true;
      rec.text = std::move(*text);
      rec.record = doc::ParseRecord(rec.kind, rec.text, rec.path);
    }
    if (InView(rec.kind, rec.slug, rec.readable)) {
      RecordRef ref;
      if (rec.record && rec.record->fields.replaced_by)
        ref.replaced_by = *rec.record->fields.replaced_by;
      store.view.Add(rec.kind, rec.slug, std::move(ref));
    }
    store.records.push_back(std::move(rec));
  }
  return store;
}

Report LintStore(const LoadedStore& store) {
  std::vector<Pending> pending;
  pending.reserve(store.records.size());
  for (const LoadedRecord& rec : store.records) {
    pending.push_back(Summarise(rec.kind, rec.slug, rec.path, rec.readable, rec.record));
  }
  return Finish(store.root, store.problems, pending, store.view);
}

namespace {

// The findings of Finish that say a record or folder cannot be read or parsed.
Report Unreadable(const std::vector<Error>& problems, const std::vector<Pending>& records) {
  Report out;
  for (const Error& e : problems) {
    out.Add(Finding{Severity::kError, "unreadable", e.path, e.line, "", e.what, e.repair});
  }
  for (const Pending& p : records) {
    if (p.unreadable) out.Add(*p.unreadable);
    if (p.parsed) continue;
    for (const Finding& f : p.own.findings) {
      if (f.rule == "frontmatter") out.Add(f);
    }
  }
  return out;
}

}  // namespace

Result<StoreLint> LintStoreAt(const std::string& root, Checks checks) {
  LORE_TRY(RequireDirectory(root));
  std::vector<Error> problems;
  LORE_ASSIGN(std::vector<RecordFile> files, ListRecordFiles(root, &problems));
  std::vector<Pending> pending(files.size());
  auto lint_one = [&](size_t i) {
    RecordFile& f = files[i];
    auto text = ReadRecordFile(f.path);
    if (!text) {
      pending[i] = Summarise(f.kind, std::move(f.slug), std::move(f.path), false,
                             tl::unexpected(text.error()));
      return;
    }
    auto record = doc::ParseRecord(f.kind, *text, f.path);
    pending[i] = Summarise(f.kind, std::move(f.slug), std::move(f.path), true, record);
  };
  const size_t threads = files.size() < kParallelRecords
                             ? 1
                             : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();) lint_one(i);
  };
  {
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
    work();
    for (auto& w : workers) w.join();
  }
  if (checks == Checks::kReadable) return StoreLint{pending.size(), Unreadable(problems, pending)};
  StoreView view;
  for (const Pending& p : pending) {
    if (InView(p.kind, p.slug, !p.unreadable)) {
      view.Add(p.kind, p.slug, RecordRef{p.replaced_by.value_or("")});
    }
  }
  StoreLint out;
  out.records = pending.size();
  out.report = Finish(root, problems, pending, view);
  return out;
}

}  // namespace lore::lint
