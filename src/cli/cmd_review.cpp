// `lore review`: decide the queued proposals, interactively on a terminal or
// from flags or a plan, then promote and clear (seed 000).
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/proposal_cli.h"
#include "cli/team_hooks.h"
#include "cli/team_review.h"
#include "lore/app/review.h"
#include "lore/app/store.h"
#include "lore/app/team.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"

namespace lore::cli {
namespace {

using proposals::Decision;

// The source_session of a review run without --session (a person in a
// terminal has no session id): the stand-in the SessionEnd reminder uses too.
constexpr std::string_view kManualSession = "manual-review";

struct ReviewArgs {
  std::string repo;
  std::string session;
  bool session_given = false;  // --session was on the command line
  std::vector<std::string> approve, decline;
  bool approve_all = false, decline_all = false, json = false;
  std::string plan;
  std::string reason = "user-declined";
  bool batches = false, partial = false;
  std::string answers;
  int claim = app::kDefaultClaim;

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

void PrintResult(const proposals::PromoteResult& r, bool json) {
  if (json) {
    Print(json::DumpJs(app::ReviewedJson(r)));
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
  if (path == "-") return ReadStdin(app::kMaxAnswersBytes);
  return app::ReadAnswersFile(path);
}

app::DecisionFlags Flags(const ReviewArgs& a) {
  return app::DecisionFlags{a.approve, a.decline, a.approve_all, a.decline_all, a.reason};
}

// `claim`: claim the batch first (--answers applies to the batch claimed
// before). Offline (one warning printed by lore-team): the local queue.
// nullopt (one line printed) when the team refused or failed.
std::optional<app::ReviewSource> ReviewSource(const store::Store& store, const ReviewArgs& a,
                                              bool claim) {
  return app::OpenReviewSource(store, a.repo, TeamConfigured(store), a.claim, claim, RunTeamStep);
}

// --batches: the AskUserQuestion inputs of the pending proposals; writes
// nothing (a store that does not exist has none).
int RunBatches(const ReviewArgs& a) {
  if (a.DecisionFlags() || !a.answers.empty() || a.partial) {
    return Usage("--batches only prints the batches: it takes no decision flags or --answers");
  }
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto exists = app::CheckExisting(*store);
  if (!exists) return ReportError(exists.error());
  if (!*exists) {
    Print("[]");
    return kExitOk;
  }
  auto src = ReviewSource(*store, a, true);
  if (!src) return kExitError;
  auto batches = app::AgentBatchesJson(*src);
  if (!batches) return ReportError(batches.error());
  Print(json::DumpJs(*batches));
  return kExitOk;
}

int RunReview(const ReviewArgs& a) {
  if (a.batches) return RunBatches(a);
  if (a.partial && a.answers.empty()) return Usage("--partial goes with --answers");
  if (!a.answers.empty() && a.DecisionFlags()) {
    return Usage("--answers cannot be combined with other decision flags or --plan");
  }
  if (a.session_given && a.session.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Usage(
        "--session is blank: pass the session id, or leave --session out to record the "
        "review as " +
        std::string(kManualSession) + " (nothing was written)");
  }
  if (a.approve_all && a.decline_all)
    return Usage("--approve-all and --decline-all exclude each other");
  if (!a.plan.empty() &&
      (a.approve_all || a.decline_all || !a.approve.empty() || !a.decline.empty())) {
    return Usage("--plan cannot be combined with other decision flags");
  }
  if (!app::IsDeclineReason(a.reason)) {
    return Usage("--reason must be user-declined, overflow-truncate or manual-skip");
  }
  if (!a.NonInteractive() && !(::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO))) {
    return Usage(std::string(::isatty(STDIN_FILENO) ? "standard output" : "standard input") +
                 " is not a terminal: decide with --approve ID…, --decline ID…, --approve-all, "
                 "--decline-all or --plan FILE");
  }
  auto now = std::chrono::system_clock::now();
  auto store = app::OpenStore(a.repo);
  if (!store) return ReportError(store.error());
  auto src = ReviewSource(*store, a, a.answers.empty());
  if (!src) return kExitError;
  auto set = app::ReadReviewQueue(*src);
  if (!set) return ReportError(set.error());

  std::vector<Decision> decisions;
  if (!a.answers.empty()) {
    auto text = ReadAnswersText(a.answers);
    if (!text) return ReportError(text.error());
    proposals::AnswerOptions ao;
    ao.allow_partial = a.partial;
    ao.now = now;
    ao.source = a.answers == "-" ? "<stdin>" : a.answers;
    auto d = app::DecideByAnswers(*text, ao, *store, &*src, &*set);
    if (!d) return ReportError(d.error());
    decisions = std::move(*d);
  } else if (!a.plan.empty()) {
    auto text = a.plan == "-" ? ReadStdin() : app::ReadPlanFile(a.plan);
    if (!text) return ReportError(text.error());
    auto plan = app::ParsePlan(*text, a.plan);
    if (!plan) return ReportError(plan.error());
    auto d = app::DecideByPlan(*plan, a.plan, *set, now);
    if (!d) return ReportError(d.error());
    decisions = std::move(*d);
  } else if (a.NonInteractive() || set->pending.empty()) {
    auto d = app::DecideByFlags(Flags(a), *set, now);
    if (!d) return ReportError(d.error());
    decisions = std::move(*d);
  } else {
    app::ReviewPicker picker(*set);
    if (auto s = RunPicker(&picker); !s) return ReportError(s.error());
    if (!picker.done()) {
      Print("review stopped: nothing was changed");
      return kExitOk;
    }
    decisions = picker.decisions();
  }

  const std::string session = a.session_given ? a.session : std::string(kManualSession);
  auto r = app::ApplyDecisions(a.repo, *src, *set, decisions, session, RunTeamStep);
  if (!r) return ReportError(r.error());
  if (!r->result) return kExitError;  // the team refused (one line printed)
  PrintResult(*r->result, a.json);
  return r->ok ? kExitOk : kExitError;
}

}  // namespace

void RegisterReviewCommand(Registry& r) {
  auto a = std::make_shared<ReviewArgs>();
  auto session = std::make_shared<CLI::Option*>(nullptr);
  CLI::App* sub =
      r.Add("review", "Keep or decline the queued proposals (batches of four)", [a, session]() {
        a->session_given = *session && (*session)->count() > 0;
        return RunReview(*a);
      });
  sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  *session = sub->add_option("--session", a->session,
                             "The session id stored as the learnings' source_session (default: "
                             "manual-review)");
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
                "nothing but a team store's claim)");
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
