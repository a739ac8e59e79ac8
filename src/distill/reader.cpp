#include "distill/reader.h"

#include <fcntl.h>

#include "distill/markdown.h"
#include "distill/memory_reader.h"
#include "distill/record_fields.h"
#include "lore/doc/frontmatter.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/log/jsonl.h"
#include "lore/text/utf8.h"

namespace lore::distill {
namespace {

constexpr int64_t kProgressEvery = 8192;  // lines

std::optional<text::TimePoint> TimeOf(const Json& r, const char* key) {
  auto it = r.find(key);
  if (it == r.end() || !it->is_string()) return std::nullopt;
  return text::ParseIso(it->get_ref<const std::string&>());
}

void AddRecord(const Json& r, int64_t line, Inputs* in) {
  ++in->raw_records;
  auto when = TimeOf(r, "recorded_at");
  std::string date = when ? text::UtcDate(*when) : std::string();
  std::string kind = FirstText(r, {"kind"});
  if (kind == "review") {
    ++in->reviews;
    in->newest.Note(&in->newest.reviews, when);
    auto findings = ReviewFindings(r, line, date);
    if (findings.empty()) ++in->reviews_without_finding;
    for (auto& f : findings) in->findings.push_back(std::move(f));
  } else if (kind == "slicing") {
    ++in->slicing;
    in->newest.Note(&in->newest.slicing, when);
    in->outcomes.push_back(SlicingFields(r, line, date));
  } else {
    ++in->other_records;
  }
}

// Every raw line, under a shared lock so that no append is half seen.
Status ReadRaw(const store::Store& store, const Progress& progress, Inputs* in) {
  const std::string path = store.raw_path();
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kShared, path));
  LORE_ASSIGN(std::string data, fs::ReadAll(fd.get(), path));
  fd.Reset();
  const auto total = static_cast<int64_t>(data.size());
  log::LineScanner scanner(data);
  log::Line line;
  int64_t seen = 0;
  while (scanner.Next(&line)) {
    if (progress && ++seen % kProgressEvery == 0) {
      progress("reading raw.jsonl", line.text.data() - data.data(), total);
    }
    if (log::IsBlank(line.text)) continue;
    Json r = Json::parse(line.text, nullptr, /*allow_exceptions=*/false);
    if (r.is_discarded() || !r.is_object() || !text::IsValidUtf8(line.text)) {
      auto what = log::CheckObjectLine(line).value_or("not valid JSON");
      return Fail(ErrorCode::kCorrupt, "malformed line (" + what + ")", path, line.number,
                  store.raw_log().bad_line_repair);
    }
    AddRecord(r, line.number, in);
  }
  if (progress) progress("reading raw.jsonl", total, total);
  return Ok();
}

// learnings.jsonl: a missing file is empty; bad lines are skipped and counted.
Status ReadLearnings(const store::Store& store, Inputs* in) {
  const std::string path = store.Path("learnings.jsonl");
  if (!fs::Exists(path)) return Ok();
  LORE_ASSIGN(std::string data, fs::ReadFile(path));
  log::LineScanner scanner(data);
  log::Line line;
  while (scanner.Next(&line)) {
    if (log::IsBlank(line.text)) continue;
    Json r = Json::parse(line.text, nullptr, false);
    if (r.is_discarded() || !r.is_object()) {
      ++in->learning_parse_errors;
      continue;
    }
    in->newest.Note(&in->newest.learnings, TimeOf(r, "created_at"));
    in->learnings.push_back(LearningFields(r));
  }
  return Ok();
}

// Top-level okf/ files that lore did not generate, and the old `updated`.
Status ReadBundle(const store::Store& store, Inputs* in) {
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(store.okf_dir()));
  for (const auto& e : entries) {
    if (e.rel.find('/') != std::string::npos || e.rel[0] == '.') continue;
    if (IsGeneratedPage(e.rel)) continue;
    if (e.type == fs::EntryType::kFile || e.type == fs::EntryType::kDirectory) {
      in->other_pages.push_back(e.rel);
    } else {
      return Fail(ErrorCode::kSymlink, "okf/ holds a symlink or special file",
                  store.Path("okf/" + e.rel), 0, "replace it with a regular file or remove it");
    }
  }
  LORE_ASSIGN(std::string index, fs::ReadFile(store.index_path()));
  LORE_ASSIGN(auto split, doc::SplitFrontmatter(index, store.index_path()));
  std::string_view yaml = split.yaml;
  size_t at = yaml.find("updated:");
  if (at == 0 || (at != std::string_view::npos && yaml[at - 1] == '\n')) {
    std::string_view rest = yaml.substr(at + 8);
    in->previous_updated = OneLine(rest.substr(0, rest.find('\n')), 40);
    if (!in->previous_updated.empty() && in->previous_updated.front() == '"') {
      in->previous_updated = OneLine(in->previous_updated.substr(1, in->previous_updated.size() - 2), 40);
    }
  }
  return Ok();
}

}  // namespace

bool IsGeneratedPage(std::string_view name) {
  return name == "index.md" || name == "gotchas.md" || name == "slicing-outcomes.md" ||
         name == "request-types.md" || name == "decisions.md" || name == "learnings.md";
}

Result<Inputs> ReadInputs(const store::Store& store, const Progress& progress,
                          std::vector<Error>* warnings) {
  Inputs in;
  in.key = store.key();
  LORE_TRY(ReadRaw(store, progress, &in));
  LORE_TRY(ReadLearnings(store, &in));
  LORE_TRY(ReadMemory(store, &in, warnings));
  LORE_TRY(ReadBundle(store, &in));
  return in;
}

}  // namespace lore::distill
