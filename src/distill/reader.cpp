#include "distill/reader.h"

#include <fcntl.h>

#include <algorithm>
#include <thread>

#include "distill/markdown.h"
#include "distill/memory_reader.h"
#include "distill/record_fields.h"
#include "doc/frontmatter.h"
#include "log/torn_tail.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/log/jsonl.h"
#include "lore/store/layout.h"
#include "lore/teamsync/team.h"
#include "lore/text/utf8.h"

namespace lore::distill {
namespace {

constexpr int64_t kProgressEvery = 8192;    // lines
constexpr size_t kParallelBytes = 4 << 20;  // below this one thread reads raw.jsonl

std::optional<text::TimePoint> TimeOf(const Flat& r, const char* key) {
  const FlatValue* v = r.Find(key);
  if (!v || !v->scalar) return std::nullopt;
  return text::ParseIso(v->text);
}

// The date of a recorded_at value; cheap for lore's own "...Z" stamps.
std::string DateOf(const std::string& stamp, const std::optional<text::TimePoint>& when) {
  if (!when) return {};
  if (stamp.size() == 20 && stamp.back() == 'Z') return stamp.substr(0, 10);
  return text::UtcDate(*when);
}

void AddRecord(const Flat& r, int64_t line, Inputs* in) {
  ++in->raw_records;
  const FlatValue* at = r.Find("recorded_at");
  std::string stamp = at && at->scalar ? at->text : std::string();
  auto when = text::ParseIso(stamp);
  std::string date = DateOf(stamp, when);
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

// One slice of raw.jsonl, read by one thread. Line numbers are local to the
// slice until Merge adds the slice's offset.
struct Slice {
  std::string_view data;
  Inputs part;
  int64_t lines = 0;
  std::optional<Error> error;
};

void ReadSlice(Slice* s, const std::string& path, const std::string& repair,
               const Progress* progress, int64_t total) {
  log::LineScanner scanner(s->data);
  log::Line line;
  while (scanner.Next(&line)) {
    s->lines = line.number;
    if (progress && line.number % kProgressEvery == 0) {
      (*progress)(
          "reading raw.jsonl",
          (line.text.data() - s->data.data()) * total / std::max<int64_t>(1, s->data.size()),
          total);
    }
    if (log::IsBlank(line.text)) continue;
    Flat r;
    if (!ParseFlat(line.text, &r) || !text::IsValidUtf8(line.text)) {
      auto what = log::CheckObjectLine(line).value_or("not valid JSON");
      s->error = line.has_newline ? Error{ErrorCode::kCorrupt, "malformed line (" + what + ")",
                                          path, line.number, repair}
                                  : log::TornTailError(path, line.number);  // as the appenders say
      return;
    }
    AddRecord(r, line.number, &s->part);
  }
}

void Merge(Slice& s, int64_t offset, Inputs* in) {
  Inputs& p = s.part;
  in->raw_records += p.raw_records;
  in->reviews += p.reviews;
  in->slicing += p.slicing;
  in->other_records += p.other_records;
  in->reviews_without_finding += p.reviews_without_finding;
  for (auto& f : p.findings) {
    f.line += offset;
    in->findings.push_back(std::move(f));
  }
  for (auto& o : p.outcomes) {
    o.line += offset;
    in->outcomes.push_back(std::move(o));
  }
  in->newest.Note(&in->newest.reviews, p.newest.reviews);
  in->newest.Note(&in->newest.slicing, p.newest.slicing);
}

// Splits `data` into at most `n` slices that end at line boundaries.
std::vector<std::string_view> Split(std::string_view data, size_t n) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 1; i <= n && start < data.size(); ++i) {
    size_t end = i == n ? data.size() : data.size() * i / n;
    if (end < start) end = start;
    size_t nl = data.find('\n', end);
    end = i == n || nl == std::string_view::npos ? data.size() : nl + 1;
    if (end > start) out.push_back(data.substr(start, end - start));
    start = end;
  }
  return out;
}

// Every line of one raw log, under a shared lock so that no append is half
// seen. Large logs are parsed by one thread per core, each on a slice of
// whole lines. Line numbers continue from `*offset` (the logs read before).
Status ReadRawFile(const std::string& path, const std::string& repair, const Progress& progress,
                   Inputs* in, int64_t* offset_io) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY));
  LORE_TRY(fs::LockFd(fd.get(), fs::LockMode::kShared, path));
  LORE_ASSIGN(std::string data, fs::ReadAll(fd.get(), path, fs::Kind::kLog));
  fd.Reset();
  const auto total = static_cast<int64_t>(data.size());
  size_t threads = data.size() < kParallelBytes
                       ? 1
                       : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  auto parts = Split(data, threads);
  std::vector<Slice> slices(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) slices[i].data = parts[i];
  {
    std::vector<std::thread> workers;
    for (size_t i = 1; i < slices.size(); ++i) {
      workers.emplace_back(ReadSlice, &slices[i], path, repair, nullptr, total);
    }
    if (!slices.empty()) ReadSlice(&slices[0], path, repair, progress ? &progress : nullptr, total);
    for (auto& w : workers) w.join();
  }
  int64_t base = *offset_io, offset = *offset_io;
  for (auto& s : slices) {
    if (s.error) {
      s.error->line += offset - base;
      return tl::unexpected(*s.error);
    }
    Merge(s, offset, in);
    offset += s.lines;
  }
  *offset_io = offset;
  if (progress) progress("reading raw.jsonl", total, total);
  return Ok();
}

// raw.jsonl, then the other machines' copies pulled by `lore sync`
// (docs/team.md), numbered after it.
Status ReadRaw(const store::Store& store, const Progress& progress, Inputs* in) {
  const std::string repair = store.raw_log().bad_line_repair;
  int64_t offset = 0;
  LORE_TRY(ReadRawFile(store.raw_path(), repair, progress, in, &offset));
  for (const auto& rel : teamsync::RemoteCopies(store.dir(), store::kRawFile)) {
    LORE_TRY(ReadRawFile(store.Path(rel), repair, nullptr, in, &offset));
  }
  return Ok();
}

// learnings.jsonl (and the other machines' copies): a missing file is empty;
// bad lines are skipped and counted.
Status ReadLearningsFile(const std::string& path, Inputs* in) {
  if (!fs::Exists(path)) return Ok();
  LORE_ASSIGN(std::string data, fs::ReadFile(path, fs::Kind::kLog));
  log::LineScanner scanner(data);
  log::Line line;
  while (scanner.Next(&line)) {
    if (log::IsBlank(line.text)) continue;
    Flat r;
    if (!ParseFlat(line.text, &r)) {
      ++in->learning_parse_errors;
      continue;
    }
    in->newest.Note(&in->newest.learnings, TimeOf(r, "created_at"));
    in->learnings.push_back(LearningFields(r));
  }
  return Ok();
}

Status ReadLearnings(const store::Store& store, Inputs* in) {
  LORE_TRY(ReadLearningsFile(store.learnings_path(), in));
  for (const auto& rel : teamsync::RemoteCopies(store.dir(), store::kLearningsFile)) {
    LORE_TRY(ReadLearningsFile(store.Path(rel), in));
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
  LORE_ASSIGN(std::string index,
              fs::ReadFileBeneath(store.dir(), store::kIndexFile, fs::Kind::kIndexPage));
  LORE_ASSIGN(auto split, doc::SplitFrontmatter(index, store.index_path()));
  std::string_view yaml = split.yaml;
  size_t at = yaml.find("updated:");
  if (at == 0 || (at != std::string_view::npos && yaml[at - 1] == '\n')) {
    std::string_view rest = yaml.substr(at + 8);
    in->previous_updated = OneLine(rest.substr(0, rest.find('\n')), 40);
    if (!in->previous_updated.empty() && in->previous_updated.front() == '"') {
      in->previous_updated =
          OneLine(in->previous_updated.substr(1, in->previous_updated.size() - 2), 40);
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
