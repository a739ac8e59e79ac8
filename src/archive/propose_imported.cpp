// What an archive brings that would reach an agent as the person's own word
// (knowledge pages and kept learnings) arrives as proposals for the person's
// review, never live (docs/agents.md, "Import"): an archive is another
// machine's or another person's memory, and a page in it may say anything.
#include "archive/propose_imported.h"

#include <stdio.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "doc/frontmatter.h"
#include "fs/atomic_file.h"
#include "lore/doc/facts.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/learnings/file.h"
#include "lore/proposals/record.h"
#include "lore/store/layout.h"
#include "lore/sys/uuid.h"
#include "lore/text/utf8.h"
#include "text/lines.h"

namespace lore::archive {
namespace {

constexpr std::string_view kWave = "import";
constexpr double kPageConfidence = 0.5;  // a page carries no confidence of its own

// `s` cut to `max` code points ("…" marks a cut).
std::string CutPoints(std::string_view s, size_t max) {
  if (text::CodePointCount(s) <= max) return std::string(s);
  return std::string(text::PrefixCodePoints(s, max > 1 ? max - 1 : 0)) + "…";
}

// The first "# " heading of a Markdown body, or "".
std::string Heading(std::string_view body) {
  for (std::string_view line : text::Lines(body)) {
    if (line.starts_with("# ")) return std::string(line.substr(2));
  }
  return "";
}

// Moves `rel` of the store `temp` to imported/<rel>, the folders made first.
Status SetAside(const std::string& temp, const std::string& rel) {
  const std::string to = fs::Join(temp, std::string(kImportedFolder) + "/" + rel);
  LORE_TRY(fs::MakeDirs(fs::Dirname(to), 0700));
  if (::rename(fs::Join(temp, rel).c_str(), to.c_str()) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot set the imported file aside", to));
  return Ok();
}

proposals::Fields FromPage(const std::string& slug, std::string_view text, const std::string& path,
                           const std::string& archive) {
  proposals::Fields f;
  f.wave_id = std::string(kWave);
  f.proposed_by_agent = "lore import";
  f.confidence = kPageConfidence;
  std::string_view body = text;
  std::string kind, description;
  if (auto split = doc::SplitFrontmatter(text, path)) {
    body = split->body;
    if (auto facts = doc::ReadFacts(split->yaml, path, split->yaml_line)) {
      kind = facts->kind;
      description = facts->description.value_or("");
    }
  }
  f.type = kind == "gotcha" ? "recurring-issue" : "proven-pattern";
  std::string subject = !description.empty() ? description : Heading(body);
  if (subject.empty()) subject = slug;
  f.subject = CutPoints(subject, proposals::kSubjectMax);
  f.insight = CutPoints(body, proposals::kInsightMax);
  if (f.insight.find_first_not_of(" \t\r\n") == std::string::npos) f.insight = f.subject;
  f.evidence = "the knowledge page knowledge/" + slug + ".md of the archive " + archive +
               ", kept whole as " + std::string(kImportedFolder) + "/knowledge/" + slug + ".md";
  return f;
}

std::optional<proposals::Fields> FromLearning(const Json& j, const std::string& archive) {
  proposals::Fields f;
  f.wave_id = std::string(kWave);
  f.proposed_by_agent = "lore import";
  f.type = json::StringOr(j, "type", "");
  if (!proposals::IsType(f.type)) f.type = "convention";
  f.subject = CutPoints(json::StringOr(j, "subject", ""), proposals::kSubjectMax);
  f.insight = CutPoints(json::StringOr(j, "insight", ""), proposals::kInsightMax);
  if (f.subject.empty() || f.insight.empty()) return std::nullopt;
  std::string evidence = json::StringOr(j, "evidence", "");
  f.evidence = CutPoints("a learning kept in the archive " + archive +
                             (evidence.empty() ? "" : "; its evidence: " + evidence),
                         proposals::kEvidenceMax);
  f.confidence = 0.5;
  if (auto it = j.find("confidence"); it != j.end() && it->is_number()) {
    double c = it->get<double>();
    if (c >= 0 && c <= 1) f.confidence = c;
  }
  return f;
}

}  // namespace

Result<ProposedImport> ProposeImported(const std::string& temp, const std::string& archive,
                                       text::TimePoint now) {
  ProposedImport out;
  std::string lines;
  auto add = [&](const proposals::Fields& f) {
    lines += json::DumpJs(proposals::MakeRecord(f, sys::NewUuidV4(), now)) + "\n";
  };
  const std::string name = fs::Basename(archive);
  LORE_ASSIGN(auto pages, fs::ListExisting(temp, "knowledge"));
  std::sort(pages.begin(), pages.end(),
            [](const fs::DirEntry& a, const fs::DirEntry& b) { return a.name < b.name; });
  for (const auto& e : pages) {
    if (!e.is_file || e.name.size() <= 3 || !e.name.ends_with(".md")) continue;
    const std::string rel = "knowledge/" + e.name;
    const std::string path = fs::Join(temp, rel);
    LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kRecord));
    add(FromPage(e.name.substr(0, e.name.size() - 3), text, rel, name));
    LORE_TRY(SetAside(temp, rel));
    ++out.pages;
  }
  const std::string learnings = fs::Join(temp, store::kLearningsFile);
  if (fs::Exists(learnings)) {
    LORE_ASSIGN(learnings::FileScan scan, learnings::ReadLearnings(learnings));
    for (const auto& l : scan.lines) {
      auto j = learnings::ParseLine(scan, l);
      if (!j) continue;
      auto f = FromLearning(*j, name);
      if (!f) continue;
      add(*f);
      ++out.learnings;
    }
    // A file without one learning lore can show (no subject or insight) goes
    // live as nothing: it stays where it was.
    if (out.learnings > 0) LORE_TRY(SetAside(temp, std::string(store::kLearningsFile)));
  }
  if (lines.empty()) return out;
  const std::string queue = fs::Join(temp, store::kProposalsFile);
  std::string bytes;
  if (fs::Exists(queue)) {
    LORE_ASSIGN(bytes, fs::ReadFile(queue, fs::Kind::kLog));
    if (!bytes.empty() && bytes.back() != '\n') bytes += '\n';
  }
  LORE_TRY(fs::WriteFileAtomic(queue, bytes + lines));
  return out;
}

}  // namespace lore::archive
