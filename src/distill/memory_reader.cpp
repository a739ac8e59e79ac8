#include "distill/memory_reader.h"

#include "distill/markdown.h"
#include "doc/frontmatter.h"
#include "lore/doc/facts.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/store/layout.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::distill {
namespace {

struct Parsed {
  doc::Facts front;
  std::string body;
};

Result<Parsed> ParseFile(const std::string& path) {
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kRecord));
  LORE_ASSIGN(auto split, doc::SplitFrontmatter(text, path));
  Parsed p;
  LORE_ASSIGN(p.front, doc::ReadFacts(split.yaml, path, split.yaml_line));
  p.body = std::string(split.body);
  return p;
}

std::string RequestType(const doc::Facts& front, const std::string& slug) {
  std::string t = OneLine(front.type, 40);
  if (!t.empty()) return t;
  return slug.substr(0, slug.find('-'));
}

// Reads every <slug>.md of `dir` into `out`, noting the newest time.
Status ReadRecords(const std::string& dir, bool requests, std::vector<MemoryRecord>* out,
                   std::optional<text::TimePoint>* newest, Newest* n,
                   std::vector<Error>* warnings) {
  if (!fs::Exists(dir)) return Ok();
  LORE_TRY(fs::RefuseSymlink(dir, "memory folder"));
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(dir));
  for (const auto& e : entries) {
    if (e.type != fs::EntryType::kFile || e.rel.find('/') != std::string::npos) continue;
    if (e.rel[0] == '.' || e.rel.size() <= 3 || e.rel.substr(e.rel.size() - 3) != ".md") continue;
    std::string path = fs::Join(dir, e.rel);
    auto parsed = ParseFile(path);
    if (!parsed) {
      warnings->push_back(parsed.error());
      continue;
    }
    MemoryRecord r;
    r.slug = e.rel.substr(0, e.rel.size() - 3);
    r.status = OneLine(parsed->front.status, 20);
    if (requests) r.type = RequestType(parsed->front, r.slug);
    auto when = parsed->front.updated;
    n->Note(newest, when);
    if (when) r.updated = text::UtcDate(*when);
    TitleAndExcerpt(parsed->body, r.slug, &r.title, &r.excerpt);
    out->push_back(std::move(r));
  }
  return Ok();
}

}  // namespace

void TitleAndExcerpt(std::string_view body, const std::string& fallback, std::string* title,
                     std::string* excerpt) {
  *title = fallback;
  excerpt->clear();
  bool have_title = false;
  std::string para;
  for (std::string_view raw : text::Lines(body, true)) {
    std::string_view line = text::Trim(raw);
    if (line.empty()) {
      if (!para.empty()) break;
      continue;
    }
    if (line[0] == '#') {
      if (!para.empty()) break;
      if (!have_title) {
        std::string_view h = text::Trim(line.substr(line.find_first_not_of('#')));
        if (!h.empty()) *title = OneLine(h, 120);
        have_title = true;
      }
      continue;
    }
    if (!para.empty()) para += ' ';
    para += line;
  }
  *excerpt = OneLine(para, 400);
  if (!have_title && !excerpt->empty()) *title = OneLine(para, 80);
}

Status ReadMemory(const store::Store& store, Inputs* in, std::vector<Error>* warnings) {
  LORE_TRY(fs::RefuseSymlink(store.Path("memory"), "memory folder"));
  LORE_TRY(ReadRecords(store.Path("memory/decisions"), false, &in->decisions, &in->newest.decisions,
                       &in->newest, warnings));
  LORE_TRY(ReadRecords(store.Path("memory/requests"), true, &in->requests, &in->newest.requests,
                       &in->newest, warnings));
  std::string summary = store.Path(store::kSummaryFile);
  if (!fs::Exists(summary)) return Ok();
  auto parsed = ParseFile(summary);
  if (!parsed) {
    warnings->push_back(parsed.error());
    return Ok();
  }
  in->newest.Note(&in->newest.summary, parsed->front.updated);
  for (std::string_view raw : text::Lines(parsed->body)) {
    std::string line = OneLine(raw, 100000);
    if (line.rfind("<!-- lore:briefing", 0) == 0 || line.rfind("<!-- /lore:briefing", 0) == 0)
      continue;  // the markers of lore's briefing (consolidate/briefing.h)
    if (!line.empty()) in->summary_lines.push_back(std::move(line));
  }
  return Ok();
}

}  // namespace lore::distill
