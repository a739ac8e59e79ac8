// `lore review`: decide the queued proposals, interactively on a terminal or
// from flags or a plan, then promote and clear (seed 000).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/proposal_cli.h"
#include "cli/team_hooks.h"
#include "cli/team_review.h"
#include "lore/consolidate/test_hook.h"
#include "lore/fs/fd.h"
#include "lore/proposals/answers.h"
#include "lore/proposals/batches.h"
#include "lore/proposals/learning.h"
#include "lore/proposals/picker.h"
#include "lore/proposals/review.h"
#include "lore/store/store.h"
#include "lore/teamsync/review.h"

namespace lore::cli {
namespace {

using proposals::Decision;
using proposals::Json;
using proposals::Verdict;

struct ReviewArgs {
  std::string repo;
  std::string session;
  std::vector<std::string> approve, decline;
  bool approve_all = false, decline_all = false, json = false;
  std::string plan;
  std::string reason = "user-declined";
  bool batches = false, partial = false;
  std::string answers;
  int claim = teamsync::kDefaultClaim;

  bool DecisionFlags() const {
    return !approve.empty() || !decline.empty() || approve_all || decline_all || !plan.empty();
  }
  bool NonInteractive() const { return DecisionFlags() || !answers.empty(); }
};

int Usage(const std::string& message) {
  std::string line = "lore: " + message + "\nRun 'lore help review' for usage.\n";
  (void)fs::WriteAll(STDERR_FILENO, line, "<stderr>");
  return kExitUsage;
}

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

// Resolves ids (or unique prefixes of at least 4 characters) to indexes of
// `set.pending`. Ids of settled records resolve to nothing (no error).
struct Resolver {
  const proposals::ReviewSet& set;
  std::vector<std::string>* errors;

  std::optional<size_t> operator()(const std::string& want) const {
    std::vector<size_t> hits;
    bool settled = false;
    for (size_t k = 0; k < set.pending.size(); ++k) {
      const std::string& id = set.scan.records[set.pending[k]].id;
      if (id == want) return k;
      if (want.size() >= 4 && id.rfind(want, 0) == 0) hits.push_back(k);
    }
    for (const auto& e : set.scan.records) settled = settled || (!e.id.empty() && e.id == want);
    if (hits.size() == 1) return hits[0];
    if (settled) return std::nullopt;
    errors->push_back(hits.empty()
                          ? "no queued proposal has id " + want
                          : "id prefix " + want + " matches " + std::to_string(hits.size()) +
                                " proposals; give more of it");
    return std::nullopt;
  }
};

Result<std::vector<Decision>> FromFlags(const ReviewArgs& a, const proposals::ReviewSet& set,
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
    std::string what;
    for (const auto& e : errors) what += (what.empty() ? "" : "; ") + e;
    return Fail(ErrorCode::kInvalidInput, what, "", 0,
                "run 'lore proposals <repo>' to see the queued ids; nothing was changed");
  }
  return d;
}

// A plan: {"approve": [ids], "decline": [ids], "reason": "user-declined"}.
// Proposals it does not name stay queued.
Result<std::vector<Decision>> FromPlan(const std::string& path, const proposals::ReviewSet& set,
                                       text::TimePoint now) {
  const std::string repair =
      "write the plan as {\"approve\": [ids], \"decline\": [ids], \"reason\": \"user-declined\"}";
  LORE_ASSIGN(std::string text, path == "-" ? ReadStdin() : fs::ReadFile(path, fs::Kind::kPlan));
  Json plan = Json::parse(text, nullptr, false);
  if (plan.is_discarded() || !plan.is_object()) {
    return Fail(ErrorCode::kInvalidInput, "the plan is not a JSON object", path, 0, repair);
  }
  ReviewArgs a;
  for (const auto& [key, value] : plan.items()) {
    if (key == "reason" && value.is_string() &&
        proposals::IsRejectReason(value.get<std::string>())) {
      a.reason = value.get<std::string>();
    } else if ((key == "approve" || key == "decline") && value.is_array() &&
               std::all_of(value.begin(), value.end(),
                           [](const Json& v) { return v.is_string(); })) {
      for (const auto& v : value)
        (key == "approve" ? a.approve : a.decline).push_back(v.get<std::string>());
    } else {
      return Fail(ErrorCode::kInvalidInput, "the plan's \"" + key + "\" is not understood", path, 0,
                  repair + " (reason: user-declined, overflow-truncate or manual-skip)");
    }
  }
  // A plan decides only what it names.
  std::vector<std::string> errors;
  Resolver resolve{set, &errors};
  std::vector<Decision> d(set.pending.size(), Decision{Verdict::kUndecided, a.reason, now});
  for (const auto& id : a.approve)
    if (auto k = resolve(id)) d[*k].verdict = Verdict::kApprove;
  for (const auto& id : a.decline)
    if (auto k = resolve(id)) d[*k].verdict = Verdict::kDecline;
  if (!errors.empty()) {
    std::string what;
    for (const auto& e : errors) what += (what.empty() ? "" : "; ") + e;
    return Fail(ErrorCode::kInvalidInput, what, path, 0, "fix the plan; nothing was changed");
  }
  return d;
}

void PrintResult(const proposals::PromoteResult& r, bool json) {
  if (json) {
    Print(proposals::DumpJs(proposals::ToJson(r)));
    return;
  }
  std::string out = "approved " + std::to_string(r.written) + "/" + std::to_string(r.expected) +
                    " written to learnings.jsonl; declined " + std::to_string(r.declined) +
                    "; left queued " + std::to_string(r.kept);
  if (r.recovered > 0)
    out += "; cleared " + std::to_string(r.recovered) + " left by an interrupted review";
  out += r.cleared ? "\nqueue cleared (" + std::to_string(r.archived_bytes) + " bytes archived, " +
                         std::to_string(r.summaries_cleared) + " summaries removed)"
                   : "\nqueue NOT cleared: " + r.skipped_reason.value_or("error");
  for (const auto& e : r.errors) out += "\nerror: " + e;
  Print(out);
}

// --answers FILE|-: at most kMaxAnswersBytes, from a regular file or stdin.
Result<std::string> ReadAnswersText(const std::string& path) {
  if (path == "-") return ReadStdin(proposals::kMaxAnswersBytes);
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > proposals::kMaxAnswersBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "the answers are not a regular file of at most " +
                    std::to_string(proposals::kMaxAnswersBytes >> 20) + " MiB",
                path, 0, "write the answers JSON to a file, or pass - and send it on stdin");
  }
  return fs::ReadAll(fd.get(), path, fs::Kind::kPlan);
}

// What a review works on: the local queue, or on a team store the batch this
// machine claimed from the team queue (docs/team.md, "Review").
struct Source {
  proposals::Paths paths;
  bool team = false;  // paths.queue is the claimed batch
};

// `claim`: claim the batch first (--answers applies to the batch claimed
// before). Offline (one warning printed by lore-team): the local queue.
// nullopt (one line printed) when the team refused or failed.
std::optional<Source> ReviewSource(const store::Store& store, const ReviewArgs& a, bool claim) {
  Source src{proposals::Paths::InStore(store.dir())};
  if (!TeamConfigured(store)) return src;
  if (claim) {
    switch (RunTeamStep({"review-claim", a.repo, "--size", std::to_string(a.claim)})) {
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

// --batches: the AskUserQuestion inputs of the pending proposals; writes
// nothing (a store that does not exist has none).
int RunBatches(const ReviewArgs& a) {
  if (a.DecisionFlags() || !a.answers.empty() || a.partial) {
    return Usage("--batches only prints the batches: it takes no decision flags or --answers");
  }
  auto store = store::Store::Locate(a.repo, store::Env::FromProcess());
  if (!store) return ReportError(store.error());
  if (!fs::Exists(store->dir())) {
    Print("[]");
    return kExitOk;
  }
  if (auto s = store->Check(store::RawCheck::kSkip); !s) return ReportError(s.error());
  auto src = ReviewSource(*store, a, true);
  if (!src) return kExitError;
  auto set = proposals::PrepareReview(src->paths);
  if (!set) return ReportError(set.error());
  const auto batches = proposals::AgentBatches(*set, set->pending);
  Print(proposals::DumpJs(
      proposals::ToJson(batches, proposals::QueueFingerprint(*set, set->pending))));
  return kExitOk;
}

int RunReview(const ReviewArgs& a) {
  if (a.batches) return RunBatches(a);
  if (a.partial && a.answers.empty()) return Usage("--partial goes with --answers");
  if (!a.answers.empty() && a.DecisionFlags()) {
    return Usage("--answers cannot be combined with other decision flags or --plan");
  }
  if (a.session.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Usage("a session id is required: pass --session ID (nothing was written)");
  }
  if (a.approve_all && a.decline_all)
    return Usage("--approve-all and --decline-all exclude each other");
  if (!a.plan.empty() &&
      (a.approve_all || a.decline_all || !a.approve.empty() || !a.decline.empty())) {
    return Usage("--plan cannot be combined with other decision flags");
  }
  if (!proposals::IsRejectReason(a.reason)) {
    return Usage("--reason must be user-declined, overflow-truncate or manual-skip");
  }
  if (!a.NonInteractive() && !(::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO))) {
    return Usage(std::string(::isatty(STDIN_FILENO) ? "standard output" : "standard input") +
                 " is not a terminal: decide with --approve ID…, --decline ID…, --approve-all, "
                 "--decline-all or --plan FILE");
  }
  auto store = store::Store::Locate(a.repo, store::Env::FromProcess());
  if (!store) return ReportError(store.error());
  auto now = std::chrono::system_clock::now();
  if (auto s = store->Ensure(now, store::RawCheck::kSkip); !s) return ReportError(s.error());
  auto src = ReviewSource(*store, a, a.answers.empty());
  if (!src) return kExitError;
  auto set = proposals::PrepareReview(src->paths);
  if (!set) return ReportError(set.error());

  std::vector<Decision> decisions;
  if (!a.answers.empty()) {
    auto text = ReadAnswersText(a.answers);
    if (!text) return ReportError(text.error());
    proposals::AnswerOptions ao;
    ao.allow_partial = a.partial;
    ao.now = now;
    ao.source = a.answers == "-" ? "<stdin>" : a.answers;
    auto answered = proposals::ReadAnswers(*text, *set, ao);
    if (!answered && src->team) {
      // Batches printed while the team database was out of reach were the
      // local queue's.
      Source local{proposals::Paths::InStore(store->dir())};
      auto local_set = proposals::PrepareReview(local.paths);
      if (!local_set) return ReportError(local_set.error());
      if (auto again = proposals::ReadAnswers(*text, *local_set, ao)) {
        src = std::move(local);
        set = std::move(local_set);
        answered = std::move(again);
      }
    }
    if (!answered) return ReportError(answered.error());
    set->pending = std::move(answered->presented);  // what the batches showed
    decisions = std::move(answered->decisions);
  } else if (!a.plan.empty()) {
    auto d = FromPlan(a.plan, *set, now);
    if (!d) return ReportError(d.error());
    decisions = std::move(*d);
  } else if (a.NonInteractive() || set->pending.empty()) {
    auto d = FromFlags(a, *set, now);
    if (!d) return ReportError(d.error());
    decisions = std::move(*d);
  } else {
    std::vector<Json> items;
    for (size_t i : set->pending) items.push_back(set->scan.records[i].record);
    proposals::ReviewSession session(std::move(items));
    if (auto s = RunPicker(&session); !s) return ReportError(s.error());
    if (session.state() != proposals::ReviewSession::State::kDone) {
      Print("review stopped: nothing was changed");
      return kExitOk;
    }
    decisions = session.decisions();
  }

  // On the team: only what this machine holds a claim on may be decided.
  bool tell_team = false;
  if (src->team) {
    std::vector<std::string> check = {"review-check", a.repo};
    for (size_t k = 0; k < decisions.size(); ++k) {
      if (decisions[k].verdict == Verdict::kUndecided) continue;
      check.insert(check.end(), {"--id", set->scan.records[set->pending[k]].id});
    }
    if (check.size() > 2) {
      switch (RunTeamStep(check)) {
        case TeamStep::kFailed:
          return kExitError;
        case TeamStep::kOffline:  // decided here; the next 'lore sync' tells the team
          break;
        case TeamStep::kDone:
          tell_team = true;
          break;
      }
    }
  }
  const auto& paths = src->paths;
  proposals::PromoteOptions opts;
  opts.remove_summaries = !src->team;
  opts.session_id = a.session;
  opts.now = std::chrono::system_clock::now();
  if (consolidate::TestHookInstalled()) {  // test builds: e.g. die in the middle of a promotion
    opts.after_learning = [](int64_t written) {
      (void)consolidate::TestHook("after-learning-" + std::to_string(written));
    };
  }
  // Test hook point "review-after-archive" (LORE_TEST_HOOK, docs/proposals.md).
  opts.after_archive = [] { (void)consolidate::TestHook("review-after-archive"); };
  auto r = proposals::PromoteAndClear(paths, *set, decisions, opts);
  if (!r) return ReportError(r.error());
  PrintResult(*r, a.json);
  const bool ok = r->cleared && r->errors.empty();
  // Only once this machine's files hold the decisions; a failure here (one
  // line) leaves them for the next 'lore sync' to tell.
  if (ok && tell_team) (void)RunTeamStep({"review-done", a.repo});
  return ok ? kExitOk : kExitError;
}

}  // namespace

void RegisterReviewCommand(Registry& r) {
  auto a = std::make_shared<ReviewArgs>();
  CLI::App* sub = r.Add("review", "Keep or decline the queued proposals (batches of four)",
                        [a]() { return RunReview(*a); });
  sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  sub->add_option("--session", a->session, "The session id stored as source_session (required)");
  sub->add_option("--approve", a->approve, "Approve these ids (the others are declined)");
  sub->add_option("--decline", a->decline, "Decline these ids (alone: the others stay queued)");
  sub->add_flag("--approve-all", a->approve_all, "Approve everything (except --decline ids)");
  sub->add_flag("--decline-all", a->decline_all, "Decline everything (except --approve ids)");
  sub->add_option("--plan", a->plan,
                  "A JSON file of decisions ('-' for stdin); unnamed ids stay queued");
  sub->add_option("--reason", a->reason,
                  "Why declined ones are declined: user-declined (default), "
                  "overflow-truncate or manual-skip");
  sub->add_flag("--json", a->json, "Print the result object as JSON");
  sub->add_flag("--batches", a->batches,
                "Print the AskUserQuestion inputs of the pending proposals as JSON (writes "
                "nothing but a team store's claim; no --session needed)");
  sub->add_option("--answers", a->answers,
                  "Apply the picks an agent collected for --batches (a JSON file, '-' for "
                  "stdin); unpicked ones are declined");
  sub->add_option("--claim", a->claim,
                  "On a team store: hold at most N proposals of the team queue (default 12)")
      ->check(CLI::Range(1, 1000));
  sub->add_flag("--partial", a->partial,
                "With --answers: leave the proposals of unanswered batches queued instead of "
                "refusing");
  sub->footer(
      "On a terminal without decision flags: arrows or j/k move, space or 1-4 toggle, Enter "
      "accepts\n"
      "the batch (unselected ones are declined), a / d approve / decline the batch, A / D "
      "everything\n"
      "left, q quits without changing anything. Exit 0 when the queue was cleared, 1 otherwise.\n"
      "Inside an agent: 'lore review <repo> --batches --json', one AskUserQuestion per batch, "
      "then\n'lore review <repo> --session ID --answers FILE' (docs/proposals.md).");
}

}  // namespace lore::cli
