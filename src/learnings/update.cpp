#include "lore/learnings/update.h"

#include <algorithm>
#include <map>
#include <set>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/learnings/file.h"
#include "lore/store/layout.h"
#include "lore/testing/point.h"
#include "proposals/append_file.h"
#include "proposals/archive_once.h"
#include "redact/json.h"
#include "text/id_match.h"

namespace lore::learnings {
namespace {

proposals::OnceFiles Once(const Files& f) { return {f.learnings, f.archive, f.marker}; }

std::string Key(const Facts& f) { return f.type + '\0' + NormaliseSubject(f.subject); }

// `scan` written back with `replace` (line index -> its new line, '\n'
// included) applied, the lines at `drop` (offsets) left out and `extra`
// appended. Every other line is kept byte for byte.
std::string Render(const FileScan& scan, const std::map<size_t, std::string>& replace,
                   const std::set<size_t>& drop, std::string_view extra) {
  std::string out;
  out.reserve(scan.bytes.size() + extra.size());
  for (size_t i = 0; i < scan.lines.size(); ++i) {
    const Line& l = scan.lines[i];
    if (drop.count(l.span.offset)) continue;
    if (auto it = replace.find(i); it != replace.end()) {
      out += it->second;
      continue;
    }
    out += scan.Text(l.span);
    if (!out.empty() && out.back() != '\n') out += '\n';  // a cut-off last line gets its end
  }
  out += extra;
  return out;
}

// The file read under the store lock, with what an interrupted prune left
// settled: lines it archived but did not remove are removed now (and its
// marker).
Result<FileScan> Load(const Files& files) {
  LORE_TRY(fs::RefuseSymlink(files.learnings, store::kLearningsFile));
  LORE_TRY(fs::RefuseSymlink(files.archive, store::kLearningsArchiveFile));
  LORE_ASSIGN(FileScan scan, ReadLearnings(files.learnings));
  LORE_ASSIGN(std::set<size_t> archived, proposals::AlreadyArchived(Once(files), scan.bytes));
  if (!archived.empty()) {
    std::string bytes = Render(scan, {}, archived, "");
    LORE_TRY(fs::WriteFileAtomic(files.learnings, bytes));
    LORE_TRY(proposals::ArchiveDone(Once(files)));
    scan = ScanLearnings(std::move(bytes));
  }
  return scan;
}

// Locked and loaded.
struct Session {
  store::StoreLock lock;
  FileScan scan;
};

Result<Session> Open(const Files& files, std::chrono::milliseconds timeout) {
  LORE_ASSIGN(store::StoreLock lock,
              store::StoreLock::Acquire(files.dir, fs::LockMode::kExclusive, timeout));
  LORE_ASSIGN(FileScan scan, Load(files));
  return Session{std::move(lock), std::move(scan)};
}

std::string LineOf(const Json& j) { return json::DumpJs(j) + "\n"; }

void AppendEach(const Files& files, const std::vector<Candidate>& candidates, PromoteResult* r) {
  auto file =
      proposals::AppendFile::Open(files.learnings, proposals::kAppendLockTimeout, files.dir);
  if (!file) {
    r->errors.push_back(file.error().Format());
    return;
  }
  for (const auto& c : candidates) {
    if (auto s = file->Append(LineOf(c.learning)); !s) {
      r->errors.push_back("proposal " + c.proposal_id + ": " + s.error().Format());
      continue;
    }
    ++r->appended;
    r->written_ids.push_back(c.proposal_id);
    (void)testing::NumberedPoint(testing::kAfterLearningPrefix, r->appended);
  }
  if (auto s = file->Sync(); !s) {
    // Sync took this call's lines back out of the file: none was written.
    r->errors.push_back(s.error().Format());
    r->appended = 0;
    r->written_ids.clear();
  }
}

}  // namespace

Files Files::InStore(const std::string& d) {
  return Files{d, fs::Join(d, store::kLearningsFile), fs::Join(d, store::kLearningsArchiveFile),
               fs::Join(d, ".learnings-archive.pending")};
}

Result<PromoteResult> Promote(const store::StoreLock& /*held*/, const Files& files,
                              const std::vector<Candidate>& in, const PromoteOptions& o) {
  PromoteResult r;
  if (in.empty()) return r;
  // A learning may come from a queue line another program wrote: nothing of
  // it reaches learnings.jsonl before the redactor (docs/secrets.md).
  std::vector<Candidate> candidates = in;
  for (Candidate& c : candidates) redact::CleanJson(&c.learning);
  LORE_ASSIGN(FileScan scan, Load(files));  // under `held`
  // The live learnings by (type, subject): a line of the file, or one added
  // by this call (index into `added`).
  struct Target {
    bool existing;
    size_t index;
  };
  std::map<std::string, Target> live;
  for (size_t i = 0; i < scan.lines.size(); ++i) {
    const Line& l = scan.lines[i];
    if (l.object && IsLive(l.facts, o.now)) live.emplace(Key(l.facts), Target{true, i});
  }
  std::map<size_t, Json> changed;
  std::vector<Json> added;
  std::vector<std::string> confirmed_ids;
  for (const auto& c : candidates) {
    auto it = live.find(Key(FactsOf(c.learning)));
    if (it == live.end()) {
      added.push_back(c.learning);
      live.emplace(Key(FactsOf(c.learning)), Target{false, added.size() - 1});
      continue;
    }
    Json* target = nullptr;
    if (it->second.existing) {
      auto slot = changed.find(it->second.index);
      if (slot == changed.end()) {
        auto parsed = ParseLine(scan, scan.lines[it->second.index]);
        if (!parsed)
          return Fail(ErrorCode::kInternal, "a learning no longer parses", files.learnings);
        slot = changed.emplace(it->second.index, std::move(*parsed)).first;
      }
      target = &slot->second;
    } else {
      target = &added[it->second.index];
    }
    Confirm(target, c.proposal_id, o.now);
    confirmed_ids.push_back(json::StringOr(*target, "id", ""));
  }
  if (confirmed_ids.empty()) {
    AppendEach(files, candidates, &r);
    return r;
  }
  // Confirmations: one atomic rewrite holds every candidate.
  std::map<size_t, std::string> replace;
  for (const auto& [i, j] : changed) replace.emplace(i, LineOf(j));
  std::string extra;
  for (const auto& j : added) extra += LineOf(j);
  if (auto st = fs::WriteFileAtomic(files.learnings, Render(scan, replace, {}, extra)); !st) {
    r.errors.push_back(st.error().Format());
    return r;
  }
  r.confirmed = static_cast<int64_t>(confirmed_ids.size());
  r.appended = static_cast<int64_t>(added.size());
  r.confirmed_ids = std::move(confirmed_ids);
  for (const auto& c : candidates) {
    r.written_ids.push_back(c.proposal_id);
    (void)testing::NumberedPoint(testing::kAfterLearningPrefix,
                                 static_cast<int64_t>(r.written_ids.size()));
  }
  return r;
}

Result<ContradictResult> Contradict(const Files& files, std::string_view id,
                                    std::chrono::milliseconds lock_timeout) {
  LORE_ASSIGN(Session s, Open(files, lock_timeout));
  const text::IdMatch m = text::MatchId(
      s.scan.lines.size(), [&](size_t i) -> std::string_view { return s.scan.lines[i].facts.id; },
      id);
  const std::optional<size_t>& exact = m.exact;
  const std::vector<size_t>& prefixed = m.prefixed;
  if (!exact && prefixed.size() > 1) {
    return Fail(ErrorCode::kInvalidInput,
                "id prefix " + std::string(id) + " matches " + std::to_string(prefixed.size()) +
                    " learnings",
                files.learnings, 0, "give more of the id");
  }
  if (!exact && prefixed.empty()) {
    return Fail(ErrorCode::kNotFound, "no learning has id " + std::string(id), files.learnings, 0,
                "run 'lore learnings <repo> --all' to see the ids");
  }
  const size_t i = exact ? *exact : prefixed[0];
  auto j = ParseLine(s.scan, s.scan.lines[i]);
  if (!j) return Fail(ErrorCode::kInternal, "a learning no longer parses", files.learnings);
  ContradictResult r;
  r.id = s.scan.lines[i].facts.id;
  r.before = json::Number(*j, "confidence").value_or(0);
  learnings::Contradict(&*j);
  r.after = json::Number(*j, "confidence").value_or(0);
  LORE_TRY(fs::WriteFileAtomic(files.learnings, Render(s.scan, {{i, LineOf(*j)}}, {}, "")));
  return r;
}

Result<bool> ConfirmInUse(const Files& files, std::string_view id, std::string_view use_key,
                          text::TimePoint now, std::chrono::milliseconds lock_timeout) {
  LORE_ASSIGN(Session s, Open(files, lock_timeout));
  for (size_t i = 0; i < s.scan.lines.size(); ++i) {
    const Line& l = s.scan.lines[i];
    if (!l.object || l.facts.id != id) continue;
    if (std::find(l.confirmed_by.begin(), l.confirmed_by.end(), use_key) != l.confirmed_by.end()) {
      return false;
    }
    auto j = ParseLine(s.scan, l);
    if (!j) return Fail(ErrorCode::kInternal, "a learning no longer parses", files.learnings);
    learnings::Confirm(&*j, use_key, now);
    LORE_TRY(fs::WriteFileAtomic(files.learnings, Render(s.scan, {{i, LineOf(*j)}}, {}, "")));
    return true;
  }
  return Fail(ErrorCode::kNotFound, "no learning has id " + std::string(id), files.learnings, 0,
              "run 'lore learnings <repo> --all' to see the ids");
}

Result<PruneResult> Prune(const Files& files, const PruneOptions& o) {
  LORE_ASSIGN(Session s, Open(files, o.lock_timeout));
  PruneResult r;
  std::vector<Span> spans;
  std::set<size_t> drop;
  for (const Line& l : s.scan.lines) {
    if (!l.object || IsLive(l.facts, o.now)) continue;
    spans.push_back(l.span);
    drop.insert(l.span.offset);
    r.pruned_ids.push_back(l.facts.id);
  }
  r.pruned = static_cast<int64_t>(spans.size());
  r.kept = static_cast<int64_t>(s.scan.lines.size()) - r.pruned;
  if (spans.empty()) return r;
  LORE_ASSIGN(r.archived_bytes, proposals::ArchiveOnce(Once(files), s.scan.bytes, spans));
  (void)testing::Point(testing::kLearningsPruneAfterArchive);
  LORE_TRY(fs::WriteFileAtomic(files.learnings, Render(s.scan, {}, drop, "")));
  LORE_TRY(proposals::ArchiveDone(Once(files)));
  return r;
}

}  // namespace lore::learnings
