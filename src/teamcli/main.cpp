// lore-team: the team store's side of lore (docs/team.md), the only program
// that links libpq. `lore team init|status <repo>` and `lore sync <repo>`
// replace themselves with it, so that the hot-path lore never loads libpq.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <iostream>

#include "cli/guard.h"
#include "cli/report.h"
#include "lore/app/store.h"
#include "lore/app/team.h"
#include "lore/team/coordination.h"
#include "lore/team/records_sync.h"
#include "lore/team/review.h"
#include "lore/team/sync.h"
#include "lore/version.h"
#include "proc/process.h"

namespace {

namespace team = lore::team;

namespace app = lore::app;

// An unreachable server is a warning: the local store keeps working.
int Report(const lore::Error& e) {
  if (e.code != lore::ErrorCode::kUnavailable) return lore::cli::WriteError(e);
  lore::cli::WriteWarning(e);
  return app::ExitCode(e);
}

struct Session {
  lore::store::Store store;
  lore::teamsync::Settings settings;
  team::Conn conn;
};

lore::Result<Session> Open(const std::string& repo) {
  LORE_ASSIGN(app::TeamStore opened, app::OpenTeamStore(repo));
  LORE_ASSIGN(team::Conn conn, team::Conn::Open(opened.settings.url, team::kConnectTimeoutSeconds,
                                                opened.settings.config_path));
  return Session{std::move(opened.store), std::move(opened.settings), std::move(conn)};
}

int Init(const std::string& repo) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  auto before = team::InitSchema(s->conn);
  if (!before) return Report(before.error());
  if (*before == team::kSchemaVersion) {
    std::cout << "team schema version " << team::kSchemaVersion << " already in place\n";
  } else {
    std::cout << "team schema " << (*before == 0 ? "created" : "upgraded") << " (version "
              << team::kSchemaVersion << ")\n";
  }
  std::cout << "this machine: " << s->settings.machine_id << "\n";
  return 0;
}

int Status(const std::string& repo) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  auto lines = team::Describe(s->conn, s->store, s->settings);
  if (!lines) return Report(lines.error());
  for (const auto& l : *lines) std::cout << l << "\n";
  return 0;
}

int Sync(const std::string& repo, bool push, bool pull) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  if (auto ok = team::RequireSchema(s->conn, s->settings.config_path); !ok)
    return Report(ok.error());
  team::PushReport pushed;
  team::PullReport pulled;
  if (push) {
    auto r = team::Push(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    pushed = *r;
    for (const auto& log : pushed.rewritten) {
      lore::cli::WriteStderr(app::Line("warning: " + log +
                                       " was rewritten since the last push: pushed again from "
                                       "its start"));
    }
  }
  team::RecordsReport records;
  if (push && pull) {
    auto r = team::SyncRecords(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    records = *r;
  }
  team::ProposalReport offered;
  if (push) {
    auto r = team::PushProposals(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    offered = *r;
  }
  int64_t cleared = 0;
  if (push) {
    // Decisions travel: what this machine reviewed (an offline review
    // included), then what the team reviewed of this machine's queue.
    if (auto r = team::MarkReviewed(s->conn, s->store, s->settings); !r) return Report(r.error());
    auto r = team::ClearReviewed(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    cleared = *r;
  }
  if (pull) {
    auto r = team::Pull(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    pulled = *r;
  }
  std::cout << "synced: pushed " << pushed.lines << " lines from " << pushed.logs
            << " logs, pulled " << pulled.lines << " lines from " << pulled.machines
            << " machines\n";
  if (records.pushed + records.pulled > 0 || !records.conflicts.empty()) {
    std::cout << "records: pushed " << records.pushed << ", pulled " << records.pulled << ", "
              << records.conflicts.size() << " in conflict\n";
  }
  for (const auto& rel : records.conflicts) {
    lore::cli::WriteStderr(
        app::Line("warning: " + rel +
                  " changed here and on another machine: both kept (team/conflicts/); merge and "
                  "delete the copy, the next 'lore sync' pushes the result"));
  }
  if (offered.queued + offered.dropped + offered.below_floor > 0) {
    std::cout << "proposals: " << offered.queued << " queued team-wide, " << offered.dropped
              << " dropped at the wave's quota, " << offered.below_floor << " below the floor\n";
  }
  if (cleared > 0) {
    std::cout << "proposals: " << cleared
              << " reviewed by the team, cleared from the local queue\n";
  }
  return 0;
}

// The review verbs `lore review` runs: silent on stdout (lore's own output
// stays what it prints); kExitTeamOffline when the database cannot be used,
// so that lore falls back to the local queue.
int ReportReview(const lore::Error& e) {
  Report(e);
  return e.code == lore::ErrorCode::kUnavailable ? app::kExitTeamOffline : 1;
}

template <typename F>
int WithReviewSession(const std::string& repo, F step) {
  auto s = Open(repo);
  if (!s) return ReportReview(s.error());
  if (auto ok = team::RequireSchema(s->conn, s->settings.config_path); !ok)
    return ReportReview(ok.error());
  if (auto done = step(*s); !done) return ReportReview(done.error());
  return 0;
}

int ReviewStep(const std::string& verb, const std::string& repo, int size,
               const std::vector<std::string>& ids) {
  return WithReviewSession(repo, [&](Session& s) -> lore::Status {
    if (verb == "review-claim") {
      LORE_TRY(team::ClaimForReview(s.conn, s.store, s.settings, size));
    } else if (verb == "review-check") {
      LORE_TRY(team::CheckClaims(s.conn, s.store, s.settings, ids));
    } else {
      LORE_TRY(team::MarkReviewed(s.conn, s.store, s.settings));
    }
    return lore::Ok();
  });
}

// One review batch from the team queue, one proposal line each on stdout.
int ReviewBatch(const std::string& repo, int size) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  if (auto ok = team::RequireSchema(s->conn, s->settings.config_path); !ok)
    return Report(ok.error());
  auto lines = team::ClaimReviewBatch(s->conn, s->store, s->settings, size);
  if (!lines) return Report(lines.error());
  for (const auto& l : *lines) std::cout << l << "\n";
  return 0;
}

// `lore consolidate --foreground` under the team's advisory lock, held by
// this process's session for the whole run: one machine at a time.
// Without the server (unreachable, no schema, no lock answer) this machine
// consolidates alone, after one warning: its files are its truth, and a
// record changed on two machines meanwhile is kept twice by the next sync.
int Consolidate(const std::string& repo, bool flush, const std::string& engine) {
  std::optional<Session> s;
  std::optional<lore::Error> offline;
  if (auto opened = Open(repo); !opened) {
    offline = opened.error();
  } else if (auto ok = team::RequireSchema(opened->conn, opened->settings.config_path); !ok) {
    offline = ok.error();
  } else {
    s.emplace(std::move(*opened));
  }
  std::optional<bool> got;
  if (s) {
    auto locked = team::TryConsolidationLock(s->conn, s->store);
    if (locked)
      got = *locked;
    else
      offline = locked.error();
  }
  if (offline) {
    lore::cli::WriteStderr(
        app::Line("warning: " + offline->Format() + " (consolidating on this machine alone)"));
  } else if (!*got) {
    std::cout << "another machine is consolidating " << s->store.key()
              << ": this request coalesces into its run\n";
    return 0;
  }
  std::string lore_bin = lore::proc::Beside("lore");
  std::vector<std::string> args = {lore_bin, "consolidate", "--foreground", "--team-locked", repo};
  if (flush) args.push_back("--flush");
  if (!engine.empty()) args.insert(args.end(), {"--engine", engine});
  std::cout.flush();
  auto status = lore::proc::Run(args);
  if (!status) return Report(status.error());
  return *status;
}

}  // namespace

static int Run(int argc, char** argv) {
  CLI::App app{"lore-team: the team store on PostgreSQL (docs/team.md)", "lore-team"};
  app.set_version_flag("--version", std::string("lore-team ") + lore::kVersionLine);
  app.require_subcommand(1, 1);
  std::string repo;
  auto add = [&](const char* name, const char* what) {
    CLI::App* sub = app.add_subcommand(name, what);
    sub->add_option("repo", repo, "A git remote URL or the path of a checkout")->required();
    return sub;
  };
  CLI::App* init = add("init", "Create or upgrade the team schema (idempotent)");
  CLI::App* status = add("status", "Show what each machine pushed and what is pending here");
  CLI::App* sync = add("sync", "Push this machine's new lines, then pull the others'");
  CLI::App* push = add("push", "Push this machine's new lines only");
  CLI::App* pull = add("pull", "Pull the other machines' new lines only");
  int size = 4;
  bool flush = false;
  CLI::App* review = add("review-batch", "Claim a batch of team proposals nobody else reviews");
  review->add_option("--size", size, "Proposals in the batch (default 4)")
      ->check(CLI::Range(1, 100));
  CLI::App* claim =
      add("review-claim", "Claim this machine's review batch (team/review-claim.jsonl)");
  int claim_size = app::kDefaultClaim;
  claim->add_option("--size", claim_size, "Proposals held in all (default 12)")
      ->check(CLI::Range(1, 1000));
  std::vector<std::string> ids;
  CLI::App* check = add("review-check", "Fail unless this machine holds the claims of --id …");
  check->add_option("--id", ids, "A proposal id (repeatable)");
  CLI::App* done = add("review-done", "Tell the team what this machine's files decided");
  CLI::App* cons =
      add("consolidate", "Consolidate in the foreground, one machine of the team at a time");
  cons->add_flag("--flush", flush, "Run even under the staging thresholds");
  std::string engine;
  cons->add_option("--engine", engine, "rules or llm (default: config.toml)")
      ->check(CLI::IsMember({"rules", "llm"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    lore::cli::WriteStderr(app::Line(e.what()));
    return app::kExitUsage;
  }
  if (init->parsed()) return Init(repo);
  if (status->parsed()) return Status(repo);
  if (sync->parsed()) return Sync(repo, true, true);
  if (push->parsed()) return Sync(repo, true, false);
  if (pull->parsed()) return Sync(repo, false, true);
  if (review->parsed()) return ReviewBatch(repo, size);
  if (claim->parsed()) return ReviewStep("review-claim", repo, claim_size, {});
  if (check->parsed()) return ReviewStep("review-check", repo, 0, ids);
  if (done->parsed()) return ReviewStep("review-done", repo, 0, {});
  return Consolidate(repo, flush, engine);
}

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore: ", lore::cli::kExitInternal, [&] { return Run(argc, argv); });
}
