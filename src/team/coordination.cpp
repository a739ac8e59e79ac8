#include "lore/team/coordination.h"

#include "lore/config/config.h"
#include "lore/json/field.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"
#include "lore/proposals/settings.h"

namespace lore::team {
namespace {

// The outcome of offering one proposal; its counter is bumped with it.
Result<std::string> Offer(Conn& conn, const std::string& repo, const std::string& machine,
                          const std::string& id, const std::string& wave, double confidence,
                          const std::string& line, const proposals::Settings& settings) {
  LORE_TRY(conn.Run("BEGIN"));
  auto done = [&]() -> Result<std::string> {
    LORE_TRY(conn.Run("INSERT INTO lore_waves (repo, wave) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                      {repo, wave}));
    // Every proposal of the wave waits here for the one before it.
    LORE_ASSIGN(PgResult w, conn.Exec("SELECT queued::text FROM lore_waves WHERE repo = $1 AND "
                                      "wave = $2 FOR UPDATE",
                                      {repo, wave}));
    LORE_ASSIGN(PgResult seen,
                conn.Exec("SELECT 1 FROM lore_proposals WHERE repo = $1 AND id = $2", {repo, id}));
    std::string state = "queued", counter = "queued";
    if (seen.rows() > 0) {
      state = "known";
    } else {
      if (confidence < settings.confidence_floor) {
        state = counter = "below_floor";
      } else if (w.Int(0, 0) >= settings.quota_per_wave) {
        state = counter = "dropped";
      }
      LORE_TRY(
          conn.Run("INSERT INTO lore_proposals (repo, id, wave, machine, state, record) "
                   "VALUES ($1, $2, $3, $4, $5, $6)",
                   {repo, id, wave, machine, state, line}));
      LORE_TRY(conn.Run("UPDATE lore_waves SET " + counter + " = " + counter +
                            " + 1 WHERE repo = $1 AND wave = $2",
                        {repo, wave}));
    }
    LORE_TRY(conn.Run("COMMIT"));
    return state;
  }();
  if (!done) (void)conn.Run("ROLLBACK");
  return done;
}

}  // namespace

Result<ProposalReport> PushProposals(Conn& conn, const store::Store& store,
                                     const teamsync::Settings& s) {
  auto paths = proposals::Paths::InStore(store.dir());
  LORE_ASSIGN(config::Config cfg, config::Config::Load(paths.config));
  LORE_ASSIGN(proposals::Settings settings, proposals::LoadSettings(cfg));
  LORE_ASSIGN(proposals::QueueScan scan, proposals::ReadQueue(paths.queue));
  ProposalReport report;
  for (const auto& e : scan.records) {
    auto wave = json::String(e.record, "wave_id");
    auto confidence = json::Number(e.record, "confidence");
    if (e.id.empty() || !wave || wave->empty() || !confidence) continue;  // lint's to report
    std::string line(scan.Text(e.span));
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    LORE_ASSIGN(std::string state,
                Offer(conn, store.key(), s.machine_id, e.id, *wave, *confidence, line, settings));
    if (state == "queued") ++report.queued;
    if (state == "dropped") ++report.dropped;
    if (state == "below_floor") ++report.below_floor;
    if (state == "known") ++report.known;
  }
  return report;
}

Result<std::vector<std::string>> ClaimReviewBatch(Conn& conn, const store::Store& store,
                                                  const teamsync::Settings& s, int size) {
  LORE_TRY(conn.Run("BEGIN"));
  auto done = [&]() -> Result<std::vector<std::string>> {
    LORE_ASSIGN(PgResult r,
                conn.Exec("SELECT id, record FROM lore_proposals WHERE repo = $1 AND state = "
                          "'queued' AND (claimed_at IS NULL OR claimed_at < now() - interval '1 "
                          "hour') ORDER BY queued_at, id LIMIT $2::integer FOR UPDATE SKIP LOCKED",
                          {store.key(), std::to_string(size)}));
    std::vector<std::string> out;
    for (int i = 0; i < r.rows(); ++i) {
      LORE_TRY(
          conn.Run("UPDATE lore_proposals SET claimed_by = $3, claimed_at = now() "
                   "WHERE repo = $1 AND id = $2",
                   {store.key(), std::string(r.Get(i, 0)), s.machine_id}));
      out.emplace_back(r.Get(i, 1));
    }
    LORE_TRY(conn.Run("COMMIT"));
    return out;
  }();
  if (!done) (void)conn.Run("ROLLBACK");
  return done;
}

Result<bool> TryConsolidationLock(Conn& conn, const store::Store& store) {
  LORE_ASSIGN(PgResult r, conn.Exec("SELECT pg_try_advisory_lock(hashtextextended($1, 0))::text",
                                    {"lore-consolidate:" + store.key()}));
  return r.Get(0, 0) == "true";
}

}  // namespace lore::team
