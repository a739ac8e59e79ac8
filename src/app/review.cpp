#include "lore/app/review.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>

#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/proposals/batches.h"
#include "lore/proposals/learning.h"
#include "lore/proposals/picker.h"
#include "lore/teamsync/review.h"
#include "text/id_match.h"

namespace lore::app {
namespace {

using proposals::Decision;
using proposals::Verdict;

std::vector<std::string> SplitCommas(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    size_t start = 0;
    while (start <= v.size()) {
      size_t comma = v.find(',', start);
      if (comma == std::string::npos) comma = v.size();
      std::string id = v.substr(start, comma - start);
      if (!id.empty()) out.push_back(id);
      start = comma + 1;
    }
  }
  return out;
}

// Resolves ids (text::MatchId) to indexes of `set.pending`. Ids of settled
// records resolve to nothing (no error).
struct Resolver {
  const proposals::ReviewSet& set;
  std::vector<std::string>* errors;

  std::optional<size_t> operator()(const std::string& want) const {
    const text::IdMatch m = text::MatchId(
        set.pending.size(),
        [&](size_t k) -> std::string_view { return set.scan.records[set.pending[k]].id; }, want);
    if (auto k = m.one()) return k;
    bool settled = false;
    for (const auto& e : set.scan.records) settled = settled || (!e.id.empty() && e.id == want);
    if (settled) return std::nullopt;
    errors->push_back(m.prefixed.empty()
                          ? "no queued proposal has id " + want
                          : "id prefix " + want + " matches " + std::to_string(m.prefixed.size()) +
                                " proposals; give more of it");
    return std::nullopt;
  }
};

std::string JoinErrors(const std::vector<std::string>& errors) {
  std::string what;
  for (const auto& e : errors) what += (what.empty() ? "" : "; ") + e;
  return what;
}

// A plan is no bigger than what lore reads from standard input.
constexpr size_t kMaxPlanBytes = size_t{16} << 20;

}  // namespace

std::optional<ReviewSource> OpenReviewSource(const store::Store& store, const std::string& repo,
                                             bool team_store, int claim_size, bool claim,
                                             const TeamRunner& team) {
  ReviewSource src{proposals::Paths::InStore(store.dir())};
  if (!team_store) return src;
  if (claim) {
    switch (team({"review-claim", repo, "--size", std::to_string(claim_size)})) {
      case TeamStep::kOffline:
        return src;
      case TeamStep::kFailed:
        return std::nullopt;
      case TeamStep::kDone:
        break;
    }
  }
  src.paths.queue = store.Path(std::string(teamsync::kReviewClaimFile));
  src.team = true;
  return src;
}

Result<proposals::ReviewSet> ReadReviewQueue(const ReviewSource& source) {
  return proposals::PrepareReview(source.paths);
}

Result<Json> AgentBatchesJson(const ReviewSource& source) {
  LORE_ASSIGN(proposals::ReviewSet set, proposals::PrepareReview(source.paths));
  const auto batches = proposals::AgentBatches(set, set.pending);
  return proposals::ToJson(batches, proposals::QueueFingerprint(set, set.pending));
}

bool IsDeclineReason(std::string_view reason) { return proposals::IsRejectReason(reason); }

Result<std::string> ReadAnswersFile(const std::string& path) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > kMaxAnswersBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "the answers are not a regular file of at most " +
                    std::to_string(kMaxAnswersBytes >> 20) + " MiB",
                path, 0, "write the answers JSON to a file, or pass - and send it on stdin");
  }
  return fs::ReadAll(fd.get(), path, fs::Kind::kPlan);
}

Result<std::string> ReadPlanFile(const std::string& path) {
  return fs::ReadFile(path, fs::Kind::kPlan);
}

Result<std::vector<Decision>> DecideByFlags(const DecisionFlags& a, const proposals::ReviewSet& set,
                                            text::TimePoint now) {
  std::vector<std::string> errors;
  Resolver resolve{set, &errors};
  const Verdict rest = a.approve_all                           ? Verdict::kApprove
                       : (a.decline_all || !a.approve.empty()) ? Verdict::kDecline
                                                               : Verdict::kUndecided;
  std::vector<Decision> d(set.pending.size(), Decision{rest, a.reason, now});
  std::vector<int> named(set.pending.size(), 0);
  for (const auto& id : SplitCommas(a.approve)) {
    if (auto k = resolve(id)) {
      d[*k].verdict = Verdict::kApprove;
      named[*k] |= 1;
    }
  }
  for (const auto& id : SplitCommas(a.decline)) {
    if (auto k = resolve(id)) {
      d[*k].verdict = Verdict::kDecline;
      named[*k] |= 2;
    }
  }
  for (size_t k = 0; k < named.size(); ++k) {
    if (named[k] == 3)
      errors.push_back("proposal " + set.scan.records[set.pending[k]].id +
                       " is both approved and declined");
  }
  if (!errors.empty()) {
    return Fail(ErrorCode::kInvalidInput, JoinErrors(errors), "", 0,
                "run 'lore proposals <repo>' to see the queued ids; nothing was changed");
  }
  return d;
}

Result<DecisionFlags> ParsePlan(std::string_view text, const std::string& path) {
  const std::string repair =
      "write the plan as {\"approve\": [ids], \"decline\": [ids], \"reason\": \"user-declined\"}";
  json::Limits limits;
  limits.max_bytes = kMaxPlanBytes;
  auto plan = json::ParseOrdered(text, limits, json::Source{path, 1, repair});
  if (!plan || !plan->is_object()) {
    std::string what = "the plan is not a JSON object";
    if (!plan) what += " (" + plan.error().what + ")";
    return Fail(ErrorCode::kInvalidInput, what, path, plan ? 0 : plan.error().line, repair);
  }
  DecisionFlags a;
  for (const auto& [key, value] : plan->items()) {
    if (key == "reason" && value.is_string() &&
        proposals::IsRejectReason(value.get<std::string>())) {
      a.reason = value.get<std::string>();
    } else if ((key == "approve" || key == "decline") && value.is_array() &&
               std::all_of(value.begin(), value.end(),
                           [](const auto& v) { return v.is_string(); })) {
      for (const auto& v : value)
        (key == "approve" ? a.approve : a.decline).push_back(v.get<std::string>());
    } else {
      return Fail(ErrorCode::kInvalidInput, "the plan's \"" + key + "\" is not understood", path, 0,
                  repair + " (reason: user-declined, overflow-truncate or manual-skip)");
    }
  }
  return a;
}

Result<std::vector<Decision>> DecideByPlan(const DecisionFlags& a, const std::string& path,
                                           const proposals::ReviewSet& set, text::TimePoint now) {
  // A plan decides only what it names.
  std::vector<std::string> errors;
  Resolver resolve{set, &errors};
  std::vector<Decision> d(set.pending.size(), Decision{Verdict::kUndecided, a.reason, now});
  for (const auto& id : a.approve)
    if (auto k = resolve(id)) d[*k].verdict = Verdict::kApprove;
  for (const auto& id : a.decline)
    if (auto k = resolve(id)) d[*k].verdict = Verdict::kDecline;
  if (!errors.empty()) {
    return Fail(ErrorCode::kInvalidInput, JoinErrors(errors), path, 0,
                "fix the plan; nothing was changed");
  }
  return d;
}

Result<std::vector<Decision>> DecideByAnswers(std::string_view text,
                                              const proposals::AnswerOptions& options,
                                              const store::Store& store, ReviewSource* source,
                                              proposals::ReviewSet* set) {
  auto answered = proposals::ReadAnswers(text, *set, options);
  if (!answered && source->team) {
    // Batches printed while the team database was out of reach were the
    // local queue's.
    ReviewSource local{proposals::Paths::InStore(store.dir())};
    LORE_ASSIGN(proposals::ReviewSet local_set, proposals::PrepareReview(local.paths));
    if (auto again = proposals::ReadAnswers(text, local_set, options)) {
      *source = std::move(local);
      *set = std::move(local_set);
      answered = std::move(again);
    }
  }
  if (!answered) return Fail(answered.error());
  set->pending = std::move(answered->presented);  // what the batches showed
  return std::move(answered->decisions);
}

Result<Reviewed> ApplyDecisions(const std::string& repo, const ReviewSource& source,
                                const proposals::ReviewSet& set,
                                const std::vector<Decision>& decisions, const std::string& session,
                                const TeamRunner& team) {
  // On the team: only what this machine holds a claim on may be decided.
  bool tell_team = false;
  if (source.team) {
    std::vector<std::string> check = {"review-check", repo};
    for (size_t k = 0; k < decisions.size(); ++k) {
      if (decisions[k].verdict == Verdict::kUndecided) continue;
      check.insert(check.end(), {"--id", set.scan.records[set.pending[k]].id});
    }
    if (check.size() > 2) {
      switch (team(check)) {
        case TeamStep::kFailed:
          return Reviewed{};
        case TeamStep::kOffline:  // decided here; the next 'lore sync' tells the team
          break;
        case TeamStep::kDone:
          tell_team = true;
          break;
      }
    }
  }
  const auto& paths = source.paths;
  proposals::PromoteOptions opts;
  opts.remove_summaries = !source.team;
  opts.session_id = session;
  opts.now = std::chrono::system_clock::now();
  LORE_ASSIGN(proposals::PromoteResult r, proposals::PromoteAndClear(paths, set, decisions, opts));
  Reviewed out;
  out.ok = r.cleared && r.errors.empty();
  out.result = std::move(r);
  // Only once this machine's files hold the decisions; a failure here (one
  // line) leaves them for the next 'lore sync' to tell.
  if (out.ok && tell_team) (void)team({"review-done", repo});
  return out;
}

struct ReviewPicker::State {
  proposals::ReviewSession session;
  proposals::KeyDecoder decoder;
  Clock clock;
};

namespace {

std::vector<Json> PendingRecords(const proposals::ReviewSet& set) {
  std::vector<Json> items;
  for (size_t i : set.pending) items.push_back(set.scan.records[i].record);
  return items;
}

}  // namespace

ReviewPicker::ReviewPicker(const proposals::ReviewSet& set, Clock clock)
    : state_(std::make_unique<State>(
          State{proposals::ReviewSession(PendingRecords(set)), {}, std::move(clock)})) {
  if (!state_->clock) state_->clock = [] { return std::chrono::system_clock::now(); };
}
ReviewPicker::~ReviewPicker() = default;
ReviewPicker::ReviewPicker(ReviewPicker&&) noexcept = default;
ReviewPicker& ReviewPicker::operator=(ReviewPicker&&) noexcept = default;

void ReviewPicker::Feed(std::string_view bytes) {
  for (const auto& key : state_->decoder.Feed(bytes)) state_->session.Feed(key, state_->clock());
}

void ReviewPicker::Quit() { state_->session.Feed({proposals::KeyKind::kQuit}, state_->clock()); }

bool ReviewPicker::active() const {
  return state_->session.state() == proposals::ReviewSession::State::kActive;
}

bool ReviewPicker::done() const {
  return state_->session.state() == proposals::ReviewSession::State::kDone;
}

const std::vector<Decision>& ReviewPicker::decisions() const { return state_->session.decisions(); }

std::string ReviewPicker::Render(size_t width) const { return state_->session.Render(width); }

Json ReviewedJson(const proposals::PromoteResult& result) { return proposals::ToJson(result); }

}  // namespace lore::app
