#include "consolidate/workspace_lint.h"

#include <set>

#include "doc/slug.h"
#include "lore/doc/record.h"
#include "lore/fs/fd.h"
#include "lore/store/layout.h"

namespace lore::consolidate {
namespace {

Status AddSlugs(Workspace& ws, doc::Kind kind, lint::StoreView& view) {
  if (kind == doc::Kind::kSummary) {
    LORE_ASSIGN(bool has, ws.Exists(std::string(store::kSummaryFile)));
    if (has) view.Add(kind, std::string(doc::kSummarySlug));
    return Ok();
  }
  LORE_ASSIGN(auto slugs, ws.ListSlugs(std::string(doc::KindDir(kind))));
  for (auto& s : slugs) {
    if (doc::IsValidSlug(s)) view.Add(kind, std::move(s));
  }
  return Ok();
}

// The replaced_by of the records reachable from `next`.
Status AddChain(Workspace& ws, doc::Kind kind, std::optional<std::string> next,
                lint::StoreView& view) {
  std::set<std::string> seen;
  while (next && doc::IsValidSlug(*next) && seen.insert(*next).second) {
    std::string rel = doc::RelPath(kind, *next);
    LORE_ASSIGN(auto bytes, ws.Read(rel));
    if (!bytes) return Ok();
    auto rec = doc::ParseRecord(kind, *bytes, fs::Join(ws.dir(), rel));
    if (!rec) return Ok();  // the linter reports the chain as far as it can read it
    lint::RecordRef ref;
    if (rec->fields.replaced_by) ref.replaced_by = *rec->fields.replaced_by;
    view.Add(kind, *next, ref);
    next = rec->fields.replaced_by;
  }
  return Ok();
}

}  // namespace

Result<lint::Report> LintInWorkspace(Workspace& ws, const StorePath& path, std::string_view text,
                                     ViewScope scope) {
  lint::Target target{path.kind, path.slug, fs::Join(ws.dir(), path.rel), lint::Op::kUpdate};
  LORE_ASSIGN(bool exists, ws.Exists(path.rel));
  target.op = exists ? lint::Op::kUpdate : lint::Op::kCreate;
  lint::StoreView view;
  if (scope == ViewScope::kFull) {
    LORE_TRY(AddSlugs(ws, path.kind, view));
    if (path.kind == doc::Kind::kWorkflow) LORE_TRY(AddSlugs(ws, doc::Kind::kKnowledge, view));
  }
  auto parsed = doc::ParseRecord(path.kind, text, target.path);
  if (parsed) LORE_TRY(AddChain(ws, path.kind, parsed->fields.replaced_by, view));
  return lint::LintParsed(target, parsed, view);
}

Error FirstLintError(const lint::Report& report) {
  for (const auto& f : report.findings) {
    if (f.severity != lint::Severity::kError) continue;
    std::string what = f.message;
    size_t more = report.Errors() - 1;
    if (more > 0) what += " (and " + std::to_string(more) + " more)";
    return Error{ErrorCode::kInvalidInput, what, f.path, f.line, f.repair};
  }
  return Error{ErrorCode::kInternal, "no lint error", "", 0, ""};
}

}  // namespace lore::consolidate
