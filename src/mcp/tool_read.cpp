// The reading tools (memory_search, knowledge_search, memory_read) and the
// resources (okf/ pages, the summary).
#include <sys/stat.h>

#include <chrono>

#include "lore/app/recall.h"
#include "lore/doc/kind.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/json/field.h"
#include "lore/memory/records.h"
#include "lore/search/search.h"
#include "mcp/lore_tools.h"

namespace lore::mcp {
namespace {

constexpr std::string_view kOkfPrefix = "lore://okf/";
constexpr std::string_view kSummaryUri = "lore://memory/summary.md";

bool StoreExists(const store::Store& s) { return fs::Exists(s.dir()); }

// Hits as `lore search --json` gives them; `all_scopes` adds each hit's scope.
Result<Json> Search(ToolState& s, const Json& args, std::optional<index::Scope> scope,
                    int max_limit = 20) {
  Json hits = Json::array();
  if (StoreExists(s.store)) {
    if (!s.index) {
      LORE_ASSIGN(index::Index idx, index::Index::Open(s.store.dir()));
      s.index.emplace(std::move(idx));
    }
    LORE_TRY(s.index->Update());
    search::SearchOptions opts;
    opts.filter.scope = scope;
    // Expired learnings are not offered to agents (docs/learnings.md).
    opts.filter.live_at = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    if (auto kind = json::String(args, "kind")) opts.filter.kind = *kind;
    // The schema bounds the limit; an integral float (5.0) is read without a cast.
    opts.limit =
        static_cast<int>(json::Int(args, "limit", 1, max_limit).value_or(search::kDefaultLimit));
    LORE_ASSIGN(std::vector<search::Hit> found,
                search::Search(*s.index, json::StringOr(args, "query", ""), opts));
    std::vector<std::string> ids;
    for (const auto& h : found) {
      hits.push_back(search::HitJson(h, !scope.has_value(), false));
      ids.push_back(search::ItemId(h.doc.record));
    }
    app::CountUse(s.store, ids, /*opened=*/false, "mcp", std::chrono::system_clock::now());
  }
  return Json{{"hits", std::move(hits)}};
}

// A file name of okf/ that a URI may name: one plain component.
bool PlainName(std::string_view name) {
  return !name.empty() && name[0] != '.' && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

// "title: …" of a page's frontmatter, cheaply (first 20 lines).
std::string TitleOf(const std::string& text) {
  size_t pos = 0;
  for (int i = 0; i < 20 && pos < text.size(); ++i) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    if (line.rfind("title:", 0) == 0) {
      std::string t(line.substr(6));
      t.erase(0, t.find_first_not_of(" \t\""));
      while (!t.empty() && (t.back() == ' ' || t.back() == '"' || t.back() == '\r')) t.pop_back();
      return t;
    }
    if (i > 0 && line == "---") break;
    pos = end + 1;
  }
  return {};
}

}  // namespace

Result<Json> MemorySearch(ToolState& s, const Json& args) {
  return Search(s, args, index::Scope::kMemory);
}

Result<Json> SearchAll(ToolState& s, const Json& args) {
  const std::string scope = json::StringOr(args, "scope", "all");
  if (scope == "all") return Search(s, args, std::nullopt, 100);
  auto parsed = index::ParseScope(scope);
  if (!parsed) {  // the schema's enum refuses it first; kept for direct callers
    return Fail(ErrorCode::kInvalidInput, "unknown scope \"" + scope + "\"", "", 0,
                "use one of memory, knowledge, learnings, raw, okf, all");
  }
  return Search(s, args, *parsed, 100);
}

Result<Json> KnowledgeSearch(ToolState& s, const Json& args) {
  return Search(s, args, index::Scope::kKnowledge);
}

Result<Json> MemoryRead(ToolState& s, const Json& args) {
  const std::string kind_name = json::StringOr(args, "kind", "");
  auto kind = doc::ParseKind(kind_name);
  if (!kind)
    return Fail(ErrorCode::kInvalidInput, "unknown kind", "", 0,
                "use one of summary, decision, request, knowledge, workflow");
  std::string slug = *kind == doc::Kind::kSummary ? std::string(doc::kSummarySlug)
                                                  : json::StringOr(args, "slug", "");
  if (slug.empty()) {
    return Fail(ErrorCode::kInvalidInput, "memory_read needs a slug for a " + kind_name, "", 0,
                "pass the slug a search returned");
  }
  LORE_ASSIGN(std::string text, memory::ReadText(s.store.dir(), *kind, slug));
  Json out;
  out["kind"] = std::string(doc::KindName(*kind));
  out["slug"] = slug;
  out["path"] = s.store.Path(doc::RelPath(*kind, slug));
  out["text"] = std::move(text);
  app::CountUse(s.store, {doc::RelPath(*kind, slug)}, /*opened=*/true, "mcp",
                std::chrono::system_clock::now());
  return out;
}

Result<Json> OpenItemTool(ToolState& s, const Json& args) {
  LORE_ASSIGN(app::ItemText item, app::OpenItem(s.store, json::StringOr(args, "id", ""), "mcp",
                                                std::chrono::system_clock::now()));
  Json out;
  out["id"] = item.id;
  out["file"] = item.file;
  if (item.line > 0) out["line"] = item.line;
  out["text"] = std::move(item.text);
  return out;
}

Result<std::vector<Resource>> ListStoreResources(const ToolState& s) {
  std::vector<Resource> out;
  if (!fs::Exists(s.store.okf_dir())) return out;
  LORE_TRY(fs::RefuseSymlink(s.store.okf_dir(), "okf directory"));
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(s.store.okf_dir()));
  for (const auto& e : entries) {
    if (e.type != fs::EntryType::kFile || !PlainName(e.rel)) continue;
    std::string title;
    if (auto text =
            fs::ReadFileBeneath(s.store.dir(), "okf/" + e.rel,
                                e.rel == "index.md" ? fs::Kind::kIndexPage : fs::Kind::kRecord))
      title = TitleOf(*text);
    out.push_back(Resource{std::string(kOkfPrefix) + e.rel, "okf/" + e.rel, title,
                           e.rel == "index.md" ? "The distilled digest of this repository's memory"
                                               : "A page of the distilled memory bundle",
                           "text/markdown"});
  }
  struct stat st;
  if (::lstat(s.store.Path("memory/summary.md").c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    out.push_back(Resource{std::string(kSummaryUri), "memory/summary.md", "Resident summary",
                           "The consolidated summary of this repository's memory",
                           "text/markdown"});
  }
  return out;
}

Result<std::string> ReadStoreResource(const ToolState& s, const std::string& uri) {
  std::string rel;
  if (uri == kSummaryUri) {
    rel = "memory/summary.md";
  } else if (uri.rfind(kOkfPrefix, 0) == 0 &&
             PlainName(std::string_view(uri).substr(kOkfPrefix.size()))) {
    rel = "okf/" + uri.substr(kOkfPrefix.size());
  } else {
    return Fail(ErrorCode::kNotFound, "no such resource", uri);
  }
  auto text = fs::ReadFileBeneath(s.store.dir(), rel,
                                  rel == "okf/index.md" ? fs::Kind::kIndexPage : fs::Kind::kRecord);
  if (!text && text.error().code == ErrorCode::kNotFound)
    return Fail(ErrorCode::kNotFound, "no such resource", uri);
  return text;
}

}  // namespace lore::mcp
