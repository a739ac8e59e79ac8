#include "lore/distill/distill.h"

#include <algorithm>
#include <chrono>

#include "distill/bundle.h"
#include "distill/pages.h"
#include "distill/reader.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/learnings/lifecycle.h"

namespace lore::distill {
namespace {

constexpr auto kLockWait = std::chrono::seconds(30);

std::string Count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The okf/ file names a digest may link to: the new pages but index.md, and
// the files people keep there.
Result<std::vector<std::string>> Linkable(const store::Store& store, const Pages& pages) {
  std::vector<std::string> out;
  for (const auto& [name, bytes] : pages) {
    if (name != "index.md") out.push_back(name);
  }
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(store.okf_dir()));
  for (const auto& e : entries) {
    if (e.type == fs::EntryType::kFile && e.rel[0] != '.' && !IsGeneratedPage(e.rel)) {
      out.push_back(e.rel);
    }
  }
  return out;
}

// Replaces index.md's body with the digest writer's answer, checked.
Status ApplyDigest(const store::Store& store, const DigestWriter& digest, Pages* pages) {
  auto index = std::find_if(pages->begin(), pages->end(),
                            [](const Page& p) { return p.first == "index.md"; });
  if (index == pages->end()) return Ok();
  LORE_ASSIGN(std::vector<std::string> linkable, Linkable(store, *pages));
  LORE_ASSIGN(std::string body, digest(*pages, linkable));
  std::string page = WithDigest(index->second, body);
  if (auto s = CheckDigest(page, linkable); !s) {
    Error e = s.error();
    e.path = store.index_path();
    return Fail(std::move(e));
  }
  index->second = std::move(page);
  return Ok();
}

}  // namespace

Result<Pages> RenderBundle(const store::Store& store, const Options& options, Summary* summary) {
  LORE_ASSIGN(Inputs in, ReadInputs(store, options.progress, &summary->warnings));
  // Learnings past expires_at or at confidence 0 leave the bundle (docs/learnings.md).
  std::erase_if(in.learnings, [&](const Learning& l) {
    learnings::Facts f;
    f.confidence = l.confidence;
    f.expires_at = text::ParseIso(l.expires_at);
    return !learnings::IsLive(f, options.now);
  });
  if (options.progress) options.progress("writing okf/", 0, 1);
  std::vector<Gotcha> gotchas = GroupFindings(in.findings);
  int64_t open = 0;
  for (const auto& d : in.decisions) open += d.status.empty() || d.status == "open";

  Pages pages;
  std::vector<std::pair<std::string, std::string>> links;
  auto add = [&](const char* file, std::string bytes, std::string link) {
    if (bytes.empty()) return;
    pages.emplace_back(file, std::move(bytes));
    links.emplace_back(file, std::move(link));
  };
  add("gotchas.md", GotchasPage(in, gotchas),
      "[Gotchas](gotchas.md): " + Count(gotchas.size(), "gotcha", "gotchas") + " from " +
          Count(static_cast<size_t>(in.reviews), "review", "reviews"));
  add("slicing-outcomes.md", SlicingPage(in),
      "[Slicing outcomes](slicing-outcomes.md): " +
          Count(in.outcomes.size(), "verdict", "verdicts") + " with counts and recent reasons");
  add("request-types.md", RequestTypesPage(in),
      "[Request types](request-types.md): " + Count(in.requests.size(), "request", "requests") +
          " in memory and the verbs of sliced tickets");
  add("decisions.md", DecisionsPage(in),
      "[Open decisions](decisions.md): " +
          Count(static_cast<size_t>(open), "decision", "decisions") + " still open");
  add("learnings.md", LearningsPage(in),
      "[Learnings](learnings.md): " +
          Count(in.learnings.size(), "approved learning", "approved learnings"));
  pages.emplace_back("index.md", IndexPage(in, gotchas, links));
  std::sort(pages.begin(), pages.end());

  summary->raw_records = in.raw_records;
  summary->reviews = in.reviews;
  summary->slicing = in.slicing;
  summary->findings = static_cast<int64_t>(in.findings.size());
  summary->learnings = static_cast<int64_t>(in.learnings.size());
  summary->open_decisions = open;
  summary->requests = static_cast<int64_t>(in.requests.size());
  summary->pages.clear();
  for (const auto& [name, bytes] : pages) summary->pages.push_back(name);
  return pages;
}

Result<Summary> Distill(const store::Store& store, const Options& options) {
  LORE_TRY(fs::RefuseSymlink(store.dir(), "store directory"));
  if (!fs::Exists(store.dir())) LORE_TRY(store.Ensure(options.now, store::RawCheck::kSkip));
  // One distiller at a time; the lock file is hidden bookkeeping.
  LORE_ASSIGN(fs::FileLock lock, fs::FileLock::Acquire(store.Path(".distill.lock"),
                                                       fs::LockMode::kExclusive, kLockWait));
  LORE_TRY(RecoverBundle(store));
  LORE_TRY(store.Check(store::RawCheck::kSkip));  // raw.jsonl is checked line by line below
  Summary summary;
  LORE_ASSIGN(Pages pages, RenderBundle(store, options, &summary));
  if (options.digest) LORE_TRY(ApplyDigest(store, options.digest, &pages));
  LORE_ASSIGN(bool same, BundleMatches(store, pages));
  if (!same) LORE_TRY(WriteBundle(store, pages));
  summary.changed = !same;
  if (options.progress) options.progress("writing okf/", 1, 1);
  return summary;
}

std::string Describe(const Summary& r, const std::string& okf_dir) {
  std::string pages;
  for (const auto& p : r.pages) pages += (pages.empty() ? "" : ", ") + p;
  auto n = [](int64_t k, const char* what) {
    return std::to_string(k) + " " + what + (k == 1 ? "" : "s");
  };
  return std::string(r.changed ? "distilled " : "unchanged: ") + n(r.raw_records, "raw record") +
         ", " + n(r.learnings, "learning") + ", " + n(r.open_decisions, "open decision") +
         " into " + okf_dir + " (" + pages + ")";
}

}  // namespace lore::distill
