#include "lore/app/propose.h"

#include <algorithm>
#include <chrono>

#include "lore/config/config.h"
#include "lore/json/field.h"
#include "lore/learnings/lifecycle.h"
#include "lore/proposals/queue.h"
#include "lore/proposals/record.h"
#include "lore/proposals/settings.h"
#include "lore/sys/uuid.h"

namespace lore::app {

const std::vector<std::string_view>& ProposalTypes() { return proposals::Types(); }

Result<Proposed> Propose(const ProposeRequest& request,
                         const std::function<Result<store::Store>()>& locate, text::TimePoint now) {
  using Status = Proposed::Status;
  proposals::Proposal p = proposals::CheckFlags(request.flags, request.env_wave);
  Proposed out;
  out.fields = p.fields;
  if (!p.errors.empty()) {
    out.errors = std::move(p.errors);
    return out;
  }
  LORE_ASSIGN(store::Store store, locate());
  LORE_ASSIGN(config::Config cfg, config::Config::Load(store.config_path()));
  LORE_ASSIGN(proposals::Settings settings, proposals::LoadSettings(cfg));
  if (p.quota_per_wave) settings.quota_per_wave = *p.quota_per_wave;
  if (p.confidence_floor) settings.confidence_floor = *p.confidence_floor;
  out.floor = settings.confidence_floor;
  out.config_path = store.config_path();
  if (request.dry_run) {
    out.status =
        p.fields.confidence < settings.confidence_floor ? Status::kBelowFloor : Status::kDryRun;
    return out;
  }
  if (!settings.enabled) {
    out.status = Status::kDisabled;
    return out;
  }
  if (!p.wave_known) {
    out.status = Status::kNoWave;
    return out;
  }
  LORE_TRY(store.Ensure(now, store::RawCheck::kSkip));
  const Json record = proposals::MakeRecord(p.fields, sys::NewUuidV4(), now);
  const std::string type = p.fields.type;
  const std::string subject = learnings::NormaliseSubject(p.fields.subject);
  const std::string insight = learnings::NormaliseSubject(p.fields.insight);
  proposals::SameProposal same;
  same.same = [&](const Json& queued) {
    return json::StringOr(queued, "type", "") == type &&
           learnings::NormaliseSubject(json::StringOr(queued, "subject", "")) == subject &&
           learnings::NormaliseSubject(json::StringOr(queued, "insight", "")) == insight;
  };
  same.subject = subject;
  same.normalise = [](std::string_view s) { return learnings::NormaliseSubject(s); };
  LORE_ASSIGN(proposals::Enqueued r,
              proposals::Enqueue(proposals::Paths::InStore(store.dir()), record, settings,
                                 proposals::kLockTimeout, same));
  if (r.reclaimed) {
    out.warning = Error{
        ErrorCode::kBusy,
        "reclaimed a stale proposals write lock of dead pid " + std::to_string(r.reclaimed->pid),
        store.Path("proposals-write.lock"), 0, ""};
  }
  out.position = r.position;
  out.quota = r.quota;
  out.dropped = r.dropped;
  switch (r.outcome) {
    case proposals::Outcome::kQueued:
      out.status = Status::kQueued;
      out.id = record["id"].get<std::string>();
      break;
    case proposals::Outcome::kQuotaExceeded:
      out.status = Status::kQuotaExceeded;
      break;
    case proposals::Outcome::kBelowFloor:
      out.status = Status::kBelowFloor;
      break;
    case proposals::Outcome::kAlreadyQueued:
      out.status = Status::kAlreadyQueued;
      out.id = r.queued_id;
      break;
  }
  return out;
}

ProposalLimits ProposalFieldLimits() {
  ProposalLimits out;
  out.subject_max = proposals::kSubjectMax;
  out.insight_max = proposals::kInsightMax;
  out.evidence_max = proposals::kEvidenceMax;
  return out;
}

DayWave WaveOfDay(std::string_view door, text::TimePoint now) {
  std::string date = text::UtcDate(now);
  date.erase(std::remove(date.begin(), date.end(), '-'), date.end());
  const auto tomorrow = std::chrono::floor<std::chrono::days>(now) + std::chrono::days(1);
  return DayWave{std::string(door) + "-" + date, text::UtcSeconds(tomorrow)};
}

}  // namespace lore::app
