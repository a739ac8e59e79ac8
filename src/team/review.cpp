#include "lore/team/review.h"

#include <algorithm>
#include <set>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/learnings/file.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"
#include "lore/proposals/review.h"
#include "lore/proposals/write_lock.h"
#include "lore/teamsync/review.h"

namespace lore::team {
namespace {

const std::string kFresh =
    "claimed_at >= now() - interval '" + std::string(teamsync::kClaimInterval) + "'";

// `body` inside BEGIN … COMMIT, rolled back when it fails.
template <typename T, typename F>
Result<T> InTransaction(Conn& conn, F body) {
  LORE_TRY(conn.Run("BEGIN"));
  Result<T> done = body();
  if (done) {
    if (auto c = conn.Run("COMMIT"); !c) done = tl::unexpected(c.error());
  }
  if (!done) (void)conn.Run("ROLLBACK");
  return done;
}

Status WriteClaimFile(const store::Store& store, const std::string& bytes) {
  auto paths = proposals::Paths::InStore(store.dir());
  const std::string path = store.Path(std::string(teamsync::kReviewClaimFile));
  LORE_TRY(fs::MakeDirs(fs::Dirname(path)));
  LORE_ASSIGN(proposals::WriteLock lock, proposals::WriteLock::Acquire(paths.lock));
  return fs::WriteFileAtomic(path, bytes);
}

}  // namespace

Result<ReviewMarks> MarkReviewed(Conn& conn, const store::Store& store,
                                 const teamsync::Settings& s) {
  // Usually nothing is waiting: one round trip, no file read.
  LORE_ASSIGN(PgResult r, conn.Exec("SELECT id FROM lore_proposals WHERE repo = $1 AND state = "
                                    "'queued' AND (claimed_by = $2 OR machine = $2)",
                                    {store.key(), s.machine_id}));
  if (r.rows() == 0) return ReviewMarks{};
  auto paths = proposals::Paths::InStore(store.dir());
  LORE_ASSIGN(auto learned, learnings::SettledIds(paths.learnings));
  LORE_ASSIGN(auto rejected, proposals::ReadIds(paths.rejected));
  std::vector<std::pair<std::string, std::string>> marks;  // id, state
  for (int i = 0; i < r.rows(); ++i) {
    std::string id(r.Get(i, 0));
    std::string state(teamsync::SettledState(id, learned, rejected));
    if (!state.empty()) marks.emplace_back(std::move(id), std::move(state));
  }
  if (marks.empty()) return ReviewMarks{};
  return InTransaction<ReviewMarks>(conn, [&]() -> Result<ReviewMarks> {
    ReviewMarks done;
    for (const auto& [id, state] : marks) {
      // Still queued: a proposal reviewed meanwhile keeps its first review.
      LORE_ASSIGN(PgResult u, conn.Exec("UPDATE lore_proposals SET state = $3, reviewed_by = $4, "
                                        "reviewed_at = now() WHERE repo = $1 AND id = $2 AND "
                                        "state = 'queued'",
                                        {store.key(), id, state, s.machine_id}));
      if (u.affected() > 0) ++(state == "kept" ? done.kept : done.declined);
    }
    return done;
  });
}

Result<int64_t> ClaimForReview(Conn& conn, const store::Store& store, const teamsync::Settings& s,
                               int size) {
  LORE_TRY(MarkReviewed(conn, store, s));
  auto bytes = InTransaction<std::string>(conn, [&]() -> Result<std::string> {
    LORE_ASSIGN(PgResult held,
                conn.Exec("SELECT id FROM lore_proposals WHERE repo = $1 AND state = 'queued' AND "
                          "claimed_by = $2 AND " +
                              kFresh + " FOR UPDATE",
                          {store.key(), s.machine_id}));
    std::vector<std::string> ids;
    for (int i = 0; i < held.rows(); ++i) ids.emplace_back(held.Get(i, 0));
    if (held.rows() < size) {
      LORE_ASSIGN(PgResult more,
                  conn.Exec("SELECT id FROM lore_proposals WHERE repo = $1 AND state = 'queued' "
                            "AND (claimed_at IS NULL OR NOT " +
                                kFresh +
                                ") ORDER BY queued_at, "
                                "id LIMIT $2::integer FOR UPDATE SKIP LOCKED",
                            {store.key(), std::to_string(size - held.rows())}));
      for (int i = 0; i < more.rows(); ++i) ids.emplace_back(more.Get(i, 0));
    }
    for (const auto& id : ids) {
      LORE_TRY(
          conn.Run("UPDATE lore_proposals SET claimed_by = $3, claimed_at = now() WHERE "
                   "repo = $1 AND id = $2",
                   {store.key(), id, s.machine_id}));
    }
    LORE_ASSIGN(PgResult batch,
                conn.Exec("SELECT record FROM lore_proposals WHERE repo = $1 AND state = 'queued' "
                          "AND claimed_by = $2 AND " +
                              kFresh + " ORDER BY queued_at, id",
                          {store.key(), s.machine_id}));
    std::string out;
    for (int i = 0; i < batch.rows(); ++i) out.append(batch.Get(i, 0)).push_back('\n');
    return out;
  });
  if (!bytes) return tl::unexpected(bytes.error());
  LORE_TRY(WriteClaimFile(store, *bytes));
  return static_cast<int64_t>(std::count(bytes->begin(), bytes->end(), '\n'));
}

Status CheckClaims(Conn& conn, const store::Store& store, const teamsync::Settings& s,
                   const std::vector<std::string>& ids) {
  auto done = InTransaction<bool>(conn, [&]() -> Result<bool> {
    std::vector<std::string> problems;
    for (const auto& id : ids) {
      LORE_ASSIGN(PgResult r, conn.Exec("SELECT state, coalesce(claimed_by, ''), "
                                        "coalesce(reviewed_by, '') FROM lore_proposals WHERE "
                                        "repo = $1 AND id = $2 FOR UPDATE",
                                        {store.key(), id}));
      teamsync::ClaimRow row{id, r.rows() > 0, "", "", ""};
      if (row.found) {
        row.state = r.Get(0, 0);
        row.claimed_by = r.Get(0, 1);
        row.reviewed_by = r.Get(0, 2);
      }
      if (auto p = teamsync::ClaimProblem(row, s.machine_id); !p.empty()) problems.push_back(p);
    }
    if (!problems.empty()) {
      std::string what = problems.front();
      if (problems.size() > 1) what += " (and " + std::to_string(problems.size() - 1) + " more)";
      return Fail(ErrorCode::kBusy, what, store.Path(std::string(teamsync::kReviewClaimFile)), 0,
                  "nothing was changed; run 'lore review <repo> --batches' for this machine's "
                  "batch");
    }
    for (const auto& id : ids) {
      LORE_TRY(conn.Run("UPDATE lore_proposals SET claimed_at = now() WHERE repo = $1 AND id = $2",
                        {store.key(), id}));
    }
    return true;
  });
  if (!done) return tl::unexpected(done.error());
  return Ok();
}

Result<int64_t> ClearReviewed(Conn& conn, const store::Store& store, const teamsync::Settings& s) {
  auto paths = proposals::Paths::InStore(store.dir());
  // A quick look first (an empty queue asks nothing); the review reads it
  // again under the write lock.
  LORE_ASSIGN(proposals::QueueScan scan, proposals::ReadQueue(paths.queue));
  std::set<std::string> local;
  for (const auto& e : scan.records) local.insert(e.id);
  local.erase("");
  if (local.empty()) return 0;
  LORE_ASSIGN(PgResult r, conn.Exec("SELECT id FROM lore_proposals WHERE repo = $1 AND machine = "
                                    "$2 AND state IN ('kept', 'declined')",
                                    {store.key(), s.machine_id}));
  proposals::PromoteOptions o;
  for (int i = 0; i < r.rows(); ++i) {
    std::string id(r.Get(i, 0));
    if (local.count(id)) o.settled_elsewhere.insert(std::move(id));
  }
  if (o.settled_elsewhere.empty()) return 0;
  LORE_ASSIGN(proposals::ReviewSet set, proposals::PrepareReview(paths));
  o.session_id = "team-review";
  o.now = std::chrono::system_clock::now();
  std::vector<proposals::Decision> undecided(set.pending.size());
  LORE_ASSIGN(proposals::PromoteResult done, proposals::PromoteAndClear(paths, set, undecided, o));
  if (!done.cleared || !done.errors.empty()) {
    return Fail(ErrorCode::kIo,
                "cannot clear the proposals the team reviewed from the local queue" +
                    (done.errors.empty() ? std::string() : ": " + done.errors.front()),
                paths.queue, 0, "the next 'lore sync' tries again");
  }
  return done.recovered;
}

}  // namespace lore::team
