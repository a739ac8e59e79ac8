// The page's changes (include/lore/app/curate.h, docs/serve.md).
#include "lore/app/curate.h"

#include <algorithm>
#include <set>

#include "app/page_parts.h"
#include "lore/app/recall.h"
#include "lore/app/review.h"
#include "lore/lint/finding.h"
#include "lore/memory/records.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/review.h"

namespace lore::app {
namespace {

constexpr const char* kPageSession = "lore-serve";

using page::RecordRef;

Error LinterRefusal(const lint::Report& report, const std::string& id, Json* findings) {
  if (findings) {
    *findings = Json::array();
    for (const lint::Finding& f : report.findings) {
      Json j = Json::object();
      j["line"] = f.line;
      j["severity"] = f.severity == lint::Severity::kError ? "error" : "warning";
      j["rule"] = f.rule;
      j["field"] = f.field;
      j["message"] = f.message;
      j["repair"] = f.repair;
      findings->push_back(std::move(j));
    }
  }
  for (const lint::Finding& f : report.findings) {
    if (f.severity == lint::Severity::kError) {
      return Error{ErrorCode::kInvalidInput, "the linter refused the edit: " + f.message, id,
                   f.line, f.repair};
    }
  }
  return Error{ErrorCode::kInvalidInput, "the linter refused the edit", id, 0, ""};
}

Result<RecordRef> EditableRecord(std::string_view id) {
  auto ref = page::RecordOf(id);
  if (!ref || !page::Editable(ref->kind)) {
    return Fail(ErrorCode::kInvalidInput, "only decisions, requests and knowledge can be edited",
                std::string(id), 0,
                "open a record under memory/decisions, memory/requests or knowledge");
  }
  return *ref;
}

}  // namespace

Result<Json> ReviewByIds(const store::Store& store, const std::string& repo,
                         const std::vector<std::string>& approve,
                         const std::vector<std::string>& decline, const std::string& reason,
                         text::TimePoint now) {
  if (approve.empty() && decline.empty()) {
    return Fail(ErrorCode::kInvalidInput, "nothing to review: no id was kept or declined", "", 0,
                "choose keep or decline for at least one proposal");
  }
  for (const std::string& id : approve) {
    if (std::find(decline.begin(), decline.end(), id) != decline.end()) {
      return Fail(ErrorCode::kInvalidInput, "proposal " + id + " is both kept and declined", "", 0,
                  "choose one of keep and decline for it");
    }
  }
  LORE_TRY(page::RefuseTeamQueue(store));
  ReviewSource source{proposals::Paths::InStore(store.dir()), false};
  LORE_ASSIGN(proposals::ReviewSet set, proposals::PrepareReview(source.paths));
  // Ids no longer pending were settled meanwhile (another tab, the CLI, the
  // agent's chat): they are reported, never decided a second time.
  std::set<std::string> pending;
  for (size_t i : set.pending) pending.insert(set.scan.records[i].id);
  DecisionFlags flags;
  flags.reason = reason.empty() ? "user-declined" : reason;
  Json already = Json::array();
  for (const auto& [ids, into] :
       {std::pair{&approve, &flags.approve}, {&decline, &flags.decline}}) {
    for (const std::string& id : *ids) {
      if (pending.count(id)) {
        into->push_back(id);
      } else {
        already.push_back(id);
      }
    }
  }
  Json out = Json::object();
  int64_t approved = 0, declined = 0;
  if (!flags.approve.empty() || !flags.decline.empty()) {
    // What the page does not name stays queued (a plan's rule, not the flags').
    LORE_ASSIGN(std::vector<proposals::Decision> decisions,
                DecideByPlan(flags, "the page's review", set, now));
    TeamRunner no_team = [](std::vector<std::string>) { return TeamStep::kOffline; };
    LORE_ASSIGN(Reviewed r, ApplyDecisions(repo, source, set, decisions, kPageSession, no_team));
    if (!r.result) {
      return Fail(ErrorCode::kUnavailable, "the review was refused", source.paths.queue, 0,
                  "review with 'lore review' on the command line");
    }
    if (!r.ok) {
      std::string why =
          r.result->errors.empty() ? "the queue was not cleared" : r.result->errors.front();
      return Fail(ErrorCode::kIo, "the review was not completed: " + why, source.paths.queue, 0,
                  "run 'lore check' and review again: nothing decided is lost");
    }
    approved = static_cast<int64_t>(r.result->approved_ids.size());
    declined = static_cast<int64_t>(r.result->declined_ids.size());
    // An id settled between the read above and the write lock is cleared as
    // settled, not decided here.
    for (const std::string& id : flags.approve) {
      if (std::find(r.result->approved_ids.begin(), r.result->approved_ids.end(), id) ==
          r.result->approved_ids.end()) {
        already.push_back(id);
      }
    }
    for (const std::string& id : flags.decline) {
      if (std::find(r.result->declined_ids.begin(), r.result->declined_ids.end(), id) ==
          r.result->declined_ids.end()) {
        already.push_back(id);
      }
    }
  }
  auto after = proposals::PrepareReview(source.paths);
  out["approved"] = approved;
  out["declined"] = declined;
  out["already"] = std::move(already);
  out["pending"] = after ? static_cast<int64_t>(after->pending.size()) : 0;
  return out;
}

Result<PageChange> EditRecordText(const store::Store& store, std::string_view id,
                                  std::string_view text, Json* findings) {
  LORE_ASSIGN(RecordRef ref, EditableRecord(id));
  LORE_ASSIGN(std::string before, memory::ReadText(store.dir(), ref.kind, ref.slug));
  LORE_ASSIGN(memory::Outcome o, memory::EditText(store.dir(), ref.kind, ref.slug, text));
  if (!o.ok()) return tl::unexpected(LinterRefusal(o.report, std::string(id), findings));
  // What the file holds now, not the text sent: private spans and secrets in
  // it were replaced on the way in (memory::EditText), and undo compares the
  // file with this.
  LORE_ASSIGN(std::string after, memory::ReadText(store.dir(), ref.kind, ref.slug));
  PageChange c;
  c.id = std::string(id);
  c.what = "edit " + c.id;
  c.before = std::move(before);
  c.after = std::move(after);
  c.result = Json::object();
  c.result["id"] = c.id;
  c.result["written"] = o.written;
  return c;
}

Result<PageChange> ReplaceRecord(const store::Store& store, std::string_view id,
                                 std::string_view by, text::TimePoint now, Json* findings) {
  LORE_ASSIGN(RecordRef ref, EditableRecord(id));
  LORE_ASSIGN(std::string before, memory::ReadText(store.dir(), ref.kind, ref.slug));
  LORE_ASSIGN(memory::Outcome o, memory::Replace(store.dir(), ref.kind, ref.slug, by, now));
  if (!o.ok()) return tl::unexpected(LinterRefusal(o.report, std::string(id), findings));
  LORE_ASSIGN(std::string after, memory::ReadText(store.dir(), ref.kind, ref.slug));
  PageChange c;
  c.id = std::string(id);
  c.what = "replace " + c.id + " by " + std::string(by);
  c.before = std::move(before);
  c.after = std::move(after);
  c.result = Json::object();
  c.result["id"] = c.id;
  c.result["replaced_by"] = std::string(by);
  return c;
}

Result<PageChange> PinFromPage(const store::Store& store, std::string_view id, bool pin,
                               text::TimePoint now) {
  const recall::Usage usage = page::ReadUsageOrNone(store);
  auto it = usage.items.find(id);
  const bool was = it != usage.items.end() && it->second.pinned;
  LORE_TRY(PinItem(store, id, pin, now));
  PageChange c;
  c.id = std::string(id);
  c.what = std::string(pin ? "pin " : "unpin ") + c.id;
  c.pinned_before = was;
  c.result = Json::object();
  c.result["id"] = c.id;
  c.result["pinned"] = pin;
  return c;
}

Result<std::string> UndoChange(const store::Store& store, const PageChange& change,
                               text::TimePoint now) {
  if (change.pinned_before) {
    LORE_TRY(PinItem(store, change.id, *change.pinned_before, now));
    return "undid " + change.what;
  }
  LORE_ASSIGN(RecordRef ref, EditableRecord(change.id));
  LORE_ASSIGN(std::string current, memory::ReadText(store.dir(), ref.kind, ref.slug));
  if (current != change.after) {
    return Fail(ErrorCode::kBusy, "the record changed since: not undone", change.id, 0,
                "open the record and edit it by hand");
  }
  LORE_ASSIGN(memory::Outcome o, memory::EditText(store.dir(), ref.kind, ref.slug, *change.before));
  if (!o.ok()) return tl::unexpected(LinterRefusal(o.report, change.id, nullptr));
  return "undid " + change.what;
}

}  // namespace lore::app
