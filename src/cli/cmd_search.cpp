// Verbs of the search index: search, reindex.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/recall.h"
#include "lore/app/search.h"
#include "lore/app/store.h"
#include "lore/json/value.h"
#include "proc/process.h"

namespace lore::cli {
namespace {

struct SearchArgs {
  std::string repo;
  std::vector<std::string> query;
  app::SearchRequest request;
  std::string kind;
  bool json = false;
  bool explain = false;
};

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

std::string HitText(const search::Hit& h, bool explain) {
  const auto& r = h.doc.record;
  const app::HitWords words = app::WordsOf(h);
  std::string out = r.file + ":" + std::to_string(h.line) + "  " + words.scope + "/" +
                    (r.kind.empty() ? "-" : r.kind);
  if (r.slug.rfind(r.file, 0) != 0) out += "  " + r.slug;
  out += "\n";
  if (explain) {
    const auto& s = h.score;
    out += "  score " + Fixed(s.Total()) + " = text " + Fixed(s.text) + " + expansion " +
           Fixed(s.expansion) + " + context " + Fixed(s.context) + " + session " +
           Fixed(s.session) + " + author " + Fixed(s.author) + " + time " + Fixed(s.time) +
           (s.curated != 0 ? " + curated " + Fixed(s.curated) : "") +
           (s.asks != 1 ? " (asks: text and expansion x " + Fixed(s.asks) + ")" : "") +
           (s.trace != 1 ? " (trace: text and expansion x " + Fixed(s.trace) + ")" : "") + "\n";
    if (!h.expansions.empty()) {
      out += "  expanded:";
      for (size_t i = 0; i < h.expansions.size(); ++i) {
        const auto& e = h.expansions[i];
        out += " " + e.token + " (" + words.stages[i] + (e.of.empty() ? "" : " of " + e.of) +
               ", weight " + Fixed(e.weight) + ")";
      }
      out += "\n";
    }
  }
  size_t pos = 0;
  while (pos <= h.excerpt.size()) {
    size_t nl = h.excerpt.find('\n', pos);
    if (nl == std::string::npos) nl = h.excerpt.size();
    out += "    " + h.excerpt.substr(pos, nl - pos) + "\n";
    pos = nl + 1;
  }
  if (!h.then.empty()) out += "    then: " + h.then + "\n";
  return out;
}

int RunSearch(const SearchArgs& a) {
  app::SearchRequest request = a.request;
  if (!a.kind.empty()) request.kind = a.kind;
  auto opts = app::SearchOptionsFor(request, std::chrono::system_clock::now());
  if (!opts) return ReportError(opts.error());
  std::string query;
  for (const auto& w : a.query) query += (query.empty() ? "" : " ") + w;

  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto found = app::Search(*store, query, *opts);
  if (!found) return ReportError(found.error());
  for (const auto& w : found->warnings) ReportWarning(w);
  const std::vector<search::Hit>& hits = found->hits;
  if (a.json) {
    Json out = app::HitsJson(hits, request.scope == "all", a.explain);
    Print(out.dump(-1, ' ', false, Json::error_handler_t::replace));
    return kExitOk;
  }
  std::string out;
  for (size_t i = 0; i < hits.size(); ++i) out += (i ? "\n" : "") + HitText(hits[i], a.explain);
  if (!out.empty()) Print(out, false);
  return kExitOk;
}

// The checkout's tracked files, as `git ls-files -z` lists them.
Result<std::vector<std::string>> TrackedFiles(const std::string& top) {
  LORE_ASSIGN(std::string out,
              proc::Output({"git", "-C", top, "ls-files", "-z"}, top, 64u << 20, 30000));
  std::vector<std::string> files;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t end = out.find('\0', pos);
    if (end == std::string::npos) end = out.size();
    if (end > pos) files.push_back(out.substr(pos, end - pos));
    pos = end + 1;
  }
  return files;
}

int RunReindex(const std::string& repo, bool symbols_only) {
  auto store = app::LocateStore(repo);
  if (!store) return ReportError(store.error());
  if (!symbols_only) {
    auto r = app::Reindex(*store);
    if (!r) return ReportError(r.error());
    Print("reindexed " + r->index_path + ": " + std::to_string(r->stats.files_indexed) +
          " files, " + std::to_string(r->stats.records_added) + " records");
  }
  // The code's symbols, when `repo` is a checkout with a commit.
  auto at = app::CheckoutAtPath(repo);
  if (!at) {
    if (!symbols_only) return kExitOk;
    return ReportError(Error{ErrorCode::kInvalidInput,
                             "lore reindex --symbols reads a checkout's code, and this is none",
                             repo, 0, "pass the path of a git checkout with a commit"});
  }
  auto files = TrackedFiles(at->top);
  if (!files) return ReportError(files.error());
  auto indexed = app::IndexSymbols(*store, *at, *files);
  if (!indexed) return ReportError(indexed.error());
  Print("symbols of " + at->top + ": " + std::to_string(indexed->symbols) + " from " +
        std::to_string(indexed->files) + " files (" + std::to_string(indexed->skipped) +
        " skipped)");
  return kExitOk;
}

}  // namespace

void RegisterSearchCommands(Registry& r) {
  auto a = std::make_shared<SearchArgs>();
  CLI::App* s = r.Add("search", "Search the store's memory, knowledge, learnings and captures",
                      [a]() { return RunSearch(*a); });
  s->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  s->add_option("query", a->query, "The words to search for (any text)")->required();
  s->add_option("--scope", a->request.scope, "What to search")
      ->check(CLI::IsMember({"memory", "knowledge", "learnings", "raw", "okf", "sessions", "all"}))
      ->capture_default_str();
  s->add_option("--kind", a->kind,
                "Only records of this kind (decision, request, a knowledge kind…)");
  s->add_option("-k", a->request.limit, "At most this many hits")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  s->add_flag("--json", a->json, "Print the hits as one JSON array");
  s->add_flag("--include-replaced", a->request.include_replaced,
              "Also show records marked replaced");
  s->add_flag("--include-expired", a->request.include_expired,
              "Also show learnings past expires_at or at confidence 0");
  s->add_flag("--explain", a->explain,
              "Show the parts of each hit's score and the expansion terms it holds");
  s->add_option("--expand", a->request.expand,
                "Query expansion stages: none, all, or a comma list of compounds, synonyms, "
                "hypernyms, hyponyms, feedback, cooc (default: compounds)");

  auto repo = std::make_shared<std::string>();
  auto symbols = std::make_shared<bool>(false);
  CLI::App* re = r.Add("reindex",
                       "Rebuild the store's search index from its files, and from a checkout "
                       "the code symbols stale citations are judged against",
                       [repo, symbols]() { return RunReindex(*repo, *symbols); });
  re->add_option("repo", *repo, "A git remote URL or the path of a checkout")->required();
  re->add_flag("--symbols", *symbols,
               "Only the checkout's code symbols (the SessionStart hook starts this)");
}

}  // namespace lore::cli
