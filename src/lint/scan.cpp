#include "lore/lint/scan.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "lint/rules.h"
#include "doc/slug.h"
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
  LORE_ASSIGN(struct stat st, fs::LStat(root));
  if (!S_ISDIR(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "store is not a directory", root, 0,
                "point lore at the store folder");
  }
  LoadedStore store;
  store.root = root;
  for (doc::Kind kind : doc::kAllKinds) {
    auto files = KindFiles(root, kind, Folders::kInclude);
    if (!files) {
      store.problems.push_back(files.error());
      continue;
    }
    for (auto& [slug, path] : *files) {
      LoadedRecord rec{kind, slug, path, {}, Fail(ErrorCode::kInternal, "not read"), false};
      if (auto text = ReadRecordFile(path); !text) {
        rec.record = tl::unexpected(text.error());
      } else {
        rec.readable = true;
        rec.text = std::move(*text);
        rec.record = doc::ParseRecord(kind, rec.text, path);
      }
      if (rec.readable && (kind == doc::Kind::kSummary || doc::IsValidSlug(slug))) {
        RecordRef ref;
        if (rec.record && rec.record->fields.replaced_by)
          ref.replaced_by = *rec.record->fields.replaced_by;
        store.view.Add(kind, slug, std::move(ref));
      }
      store.records.push_back(std::move(rec));
    }
  }
  return store;
}

Report LintStore(const LoadedStore& store) {
  Report out;
  std::array<std::map<std::string, std::vector<std::string>, std::less<>>, doc::kKindCount> near;
  for (doc::Kind kind : doc::kAllKinds)
    near[doc::KindIndex(kind)] = detail::NearSlugs(store.view, kind);
  static const std::vector<std::string> kNone;
  for (const Error& e : store.problems) {
    out.Add(Finding{Severity::kError, "unreadable", e.path, e.line, "", e.what, e.repair});
  }
  for (const LoadedRecord& rec : store.records) {
    if (!rec.readable) {
      const Error& e = rec.record.error();
      out.Add(Finding{Severity::kError, "unreadable", rec.path, 0, "", e.what, e.repair});
      continue;
    }
    Target t{rec.kind, rec.slug, rec.path, Op::kCheck};
    const auto& kind_near = near[doc::KindIndex(rec.kind)];
    auto it = kind_near.find(rec.slug);
    out.Append(
        detail::LintWith(t, rec.record, store.view, it == kind_near.end() ? &kNone : &it->second));
  }
  for (const auto& c : teamsync::ListConflicts(store.root)) {  // docs/team.md
    out.Add(Finding{Severity::kWarning, "team-conflict", fs::Join(store.root, c.copy_rel), 0, "",
                    c.record_rel + " changed here and on " + c.machine + " since the last sync",
                    "merge the two into " + c.record_rel + " and delete this copy; the next 'lore "
                    "sync' pushes the result"});
  }
  return out;
}

}  // namespace lore::lint
