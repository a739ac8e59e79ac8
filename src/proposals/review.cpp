#include "lore/proposals/review.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "fs/atomic_file.h"
#include "lore/config/config.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/learnings/file.h"
#include "lore/learnings/update.h"
#include "lore/log/jsonl.h"
#include "lore/proposals/collect.h"
#include "lore/proposals/learning.h"
#include "lore/proposals/queue.h"
#include "lore/proposals/record.h"
#include "lore/proposals/settings.h"
#include "lore/proposals/write_lock.h"
#include "lore/store/layout.h"
#include "lore/testing/point.h"
#include "proposals/append_file.h"
#include "proposals/archive_once.h"
#include "proposals/summary.h"
#include "redact/json.h"
#include "text/trim.h"

namespace lore::proposals {
namespace {

// What happens to each line of the queue as it is now.
enum class Fate { kKeep, kClear, kApprove, kDecline };

struct Plan {
  QueueScan now;
  std::vector<std::pair<Span, Fate>> lines;  // every line, in file order
  std::vector<std::pair<const Entry*, const Decision*>> approve, decline;  // FIFO
  std::vector<const Entry*> kept;
  int64_t recovered = 0;
};

void PlanLines(const ReviewSet& set, const std::vector<Decision>& decisions,
               const std::set<std::string>& learned, const std::set<std::string>& rejected,
               const std::set<std::string>& elsewhere, Plan* p) {
  std::map<std::string_view, const Decision*> by_text;
  for (size_t k = 0; k < set.pending.size(); ++k) {
    by_text[text::TrimEnd(set.scan.Text(set.scan.records[set.pending[k]].span), "\r\n")] =
        &decisions[k];
  }
  const std::string& before = set.scan.bytes;
  const bool same_prefix = p->now.bytes.compare(0, before.size(), before) == 0;
  auto reviewed_region = [&](const Span& s) {
    return same_prefix && s.offset + s.length <= before.size();
  };

  std::map<size_t, Fate> fate;  // by offset
  std::set<std::string> approved_ids;
  for (size_t i : FifoOrder(p->now)) {
    const Entry& e = p->now.records[i];
    Fate f = Fate::kKeep;
    if (!e.id.empty() && (learned.count(e.id) || rejected.count(e.id) || elsewhere.count(e.id) ||
                          approved_ids.count(e.id))) {
      f = Fate::kClear;
      if (!approved_ids.count(e.id)) ++p->recovered;
    } else if (auto it = by_text.find(text::TrimEnd(p->now.Text(e.span), "\r\n"));
               it != by_text.end()) {
      if (it->second->verdict == Verdict::kApprove) {
        f = Fate::kApprove;
        p->approve.emplace_back(&e, it->second);
        if (!e.id.empty()) approved_ids.insert(e.id);
      } else if (it->second->verdict == Verdict::kDecline) {
        f = Fate::kDecline;
        p->decline.emplace_back(&e, it->second);
      }
    }
    if (f == Fate::kKeep) p->kept.push_back(&e);
    fate[e.span.offset] = f;
  }
  for (const auto* spans : {&p->now.malformed, &p->now.blank}) {
    for (const Span& s : *spans) fate[s.offset] = reviewed_region(s) ? Fate::kClear : Fate::kKeep;
  }
  std::vector<Span> all;
  for (const auto& e : p->now.records) all.push_back(e.span);
  for (const auto* spans : {&p->now.malformed, &p->now.blank})
    all.insert(all.end(), spans->begin(), spans->end());
  std::sort(all.begin(), all.end(),
            [](const Span& a, const Span& b) { return a.offset < b.offset; });
  for (const Span& s : all) p->lines.emplace_back(s, fate[s.offset]);
}

void WriteApproved(const WriteLock& lock, const Paths& paths, const Plan& plan,
                   const PromoteOptions& o, PromoteResult* r) {
  r->expected = static_cast<int64_t>(plan.approve.size());
  if (plan.approve.empty()) return;
  std::vector<learnings::Candidate> candidates;
  for (const auto& [entry, decision] : plan.approve) {
    const std::string who = "proposal " + (entry->id.empty() ? "<no id>" : entry->id);
    if (auto problems = PromotionProblems(entry->record); !problems.empty()) {
      r->errors.push_back(who + " (" + paths.queue + ":" + std::to_string(entry->span.line) +
                          "): " + text::Joined(problems));
      continue;
    }
    candidates.push_back({entry->id, ToLearning(entry->record, o.session_id, o.now)});
  }
  learnings::PromoteOptions po;
  po.now = o.now;
  auto done =
      learnings::Promote(lock.store_lock(), learnings::Files::InStore(paths.dir), candidates, po);
  if (!done) {
    r->errors.push_back(done.error().Format());
    return;
  }
  // A confirmation counts as written: the proposal is in learnings.jsonl.
  r->written = done->appended + done->confirmed;
  r->confirmed = done->confirmed;
  r->approved_ids = std::move(done->written_ids);
  r->errors.insert(r->errors.end(), done->errors.begin(), done->errors.end());
}

void WriteDeclined(const Paths& paths, const Plan& plan, const PromoteOptions& o,
                   PromoteResult* r) {
  if (plan.decline.empty()) return;
  std::string bytes;
  for (const auto& [entry, decision] : plan.decline) {
    text::TimePoint at = decision->at == text::TimePoint{} ? o.now : decision->at;
    Json rejected = ToRejected(entry->record, decision->reason, at);
    redact::CleanJson(&rejected);  // the line may come from another program
    bytes += json::DumpJs(rejected) + "\n";
    r->declined_ids.push_back(entry->id);
  }
  auto file = AppendFile::Open(paths.rejected);
  Status s = file ? file->Append(bytes) : Status(tl::unexpected(file.error()));
  if (s) s = file->Sync();
  if (!s) {
    r->errors.push_back(s.error().Format());
    r->declined_ids.clear();
    return;
  }
  r->declined = static_cast<int64_t>(plan.decline.size());
}

Status Clear(const Paths& paths, const Plan& plan, const PromoteOptions& o, PromoteResult* r) {
  // Lines an interrupted review already archived (the queue still holds
  // them) are cleared without being archived twice.
  LORE_ASSIGN(std::set<size_t> archived, AlreadyArchived(paths, plan.now));
  std::string keep;
  std::vector<Span> to_archive;
  bool any_cleared = false;
  for (const auto& [span, fate] : plan.lines) {
    if (fate == Fate::kKeep) {
      keep += plan.now.Text(span);
      continue;
    }
    any_cleared = true;
    if (!archived.count(span.offset)) to_archive.push_back(span);
  }
  LORE_ASSIGN(r->archived_bytes, ArchiveOnce(paths, plan.now, to_archive));
  (void)testing::Point(testing::kReviewAfterArchive);
  if (any_cleared) LORE_TRY(fs::WriteFileAtomic(paths.queue, keep));
  LORE_TRY(ArchiveDone(paths));
  std::set<std::string> waves;
  for (const Entry* e : plan.kept) {
    if (e->record.contains("wave_id") && e->record["wave_id"].is_string()) {
      waves.insert(e->record["wave_id"].get<std::string>());
    }
    r->kept_ids.push_back(e->id);
  }
  r->kept = static_cast<int64_t>(plan.kept.size());
  if (o.remove_summaries) r->summaries_cleared = RemoveSummaries(paths, waves);
  r->cleared = true;
  return Ok();
}

// The queue's bytes; a missing queue is empty.
Result<std::string> ReadBytes(const std::string& path) {
  auto text = fs::ReadFile(path, fs::Kind::kLog);
  if (!text && text.error().code == ErrorCode::kNotFound) return std::string();
  return text;
}

}  // namespace

Result<std::set<std::string>> ReadIds(const std::string& path) {
  std::set<std::string> ids;
  auto text = fs::ReadFile(path, fs::Kind::kLog);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return ids;
    return tl::unexpected(text.error());
  }
  log::LineScanner lines(*text);
  log::Line line;
  constexpr std::string_view kHead = "{\"id\":\"";
  while (lines.Next(&line)) {
    std::string_view t = line.text;
    if (t.substr(0, kHead.size()) == kHead) {
      size_t end = t.find('"', kHead.size());
      std::string_view id =
          t.substr(kHead.size(), end == std::string_view::npos ? 0 : end - kHead.size());
      if (end != std::string_view::npos && id.find('\\') == std::string_view::npos) {
        ids.emplace(id);
        continue;
      }
    }
    if (t.find("\"id\"") == std::string_view::npos) continue;
    auto j = json::ParseOrdered(t, QueueLineLimits());
    if (j && j->is_object()) {
      if (auto id = json::String(*j, "id")) ids.insert(*id);
    }
  }
  return ids;
}

Result<ReviewSet> PrepareReview(const Paths& paths, std::chrono::milliseconds lock_timeout) {
  // The store's settings, read as every other verb reads them: a config.toml
  // that is malformed (or whose memory.proposals settings are) is refused
  // before anything is read or written.
  if (!paths.config.empty()) {
    LORE_ASSIGN(config::Config cfg, config::Config::Load(paths.config));
    LORE_TRY(LoadSettings(cfg));
  }
  LORE_TRY(fs::RefuseSymlink(paths.queue, store::kProposalsFile));
  ReviewSet set;
  {
    LORE_ASSIGN(WriteLock lock, WriteLock::Acquire(paths.lock, lock_timeout));
    LORE_ASSIGN(set.scan, ReadQueue(paths.queue));
  }
  LORE_ASSIGN(auto learned, learnings::SettledIds(paths.learnings));
  LORE_ASSIGN(auto rejected, ReadIds(paths.rejected));
  for (size_t i : FifoOrder(set.scan)) {
    const std::string& id = set.scan.records[i].id;
    if (!id.empty() && (learned.count(id) || rejected.count(id))) {
      ++set.settled;
    } else {
      set.pending.push_back(i);
    }
  }
  return set;
}

Result<PromoteResult> PromoteAndClear(const Paths& paths, const ReviewSet& set,
                                      const std::vector<Decision>& decisions,
                                      const PromoteOptions& o) {
  if (o.session_id.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Fail(ErrorCode::kInvalidInput, "a session id is required to promote proposals", "", 0,
                "pass --session ID (the id of the session whose proposals these are)");
  }
  if (decisions.size() != set.pending.size()) {
    return Fail(ErrorCode::kInternal, "one decision per pending proposal is required");
  }
  LORE_TRY(fs::RefuseSymlink(paths.queue, store::kProposalsFile));
  LORE_TRY(fs::RefuseSymlink(paths.archive, store::kProposalsArchiveFile));
  LORE_TRY(fs::RefuseSymlink(paths.learnings, store::kLearningsFile));
  LORE_TRY(fs::RefuseSymlink(paths.rejected, store::kProposalsRejectedFile));

  LORE_ASSIGN(WriteLock lock, WriteLock::Acquire(paths.lock, o.lock_timeout));
  Plan plan;
  LORE_ASSIGN(std::string bytes, ReadBytes(paths.queue));
  // Usually nothing arrived meanwhile: reuse what was parsed for the review.
  plan.now = bytes == set.scan.bytes ? set.scan : ScanQueue(std::move(bytes));
  LORE_ASSIGN(auto learned, learnings::SettledIds(paths.learnings));
  LORE_ASSIGN(auto rejected, ReadIds(paths.rejected));
  PlanLines(set, decisions, learned, rejected, o.settled_elsewhere, &plan);

  PromoteResult r;
  r.recovered = plan.recovered;
  WriteApproved(lock, paths, plan, o, &r);
  WriteDeclined(paths, plan, o, &r);
  if (r.written != r.expected || !r.errors.empty()) {
    r.skipped_reason = !r.errors.empty() ? std::string("write-errors")
                                         : "partial-write: " + std::to_string(r.written) + "/" +
                                               std::to_string(r.expected) + " written";
    return r;
  }
  if (auto s = Clear(paths, plan, o, &r); !s) {
    r.errors.push_back(s.error().Format());
    r.cleared = false;
  }
  return r;
}

Json ToJson(const PromoteResult& r) {
  Json j = Json::object();
  j["written"] = r.written;
  j["expected"] = r.expected;
  j["errors"] = r.errors;
  j["cleared"] = r.cleared;
  j["summariesCleared"] = r.summaries_cleared;
  j["skippedReason"] = r.skipped_reason ? Json(*r.skipped_reason) : Json(nullptr);
  j["confirmed"] = r.confirmed;
  j["declined"] = r.declined;
  j["recovered"] = r.recovered;
  j["kept"] = r.kept;
  j["archivedBytes"] = r.archived_bytes;
  j["approvedIds"] = r.approved_ids;
  j["declinedIds"] = r.declined_ids;
  j["keptIds"] = r.kept_ids;
  return j;
}

}  // namespace lore::proposals
