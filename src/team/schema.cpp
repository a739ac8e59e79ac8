// The team schema, versioned in lore_schema; every row is keyed by the
// store key (repo) so that one database serves many repositories.
#include <string>

#include "lore/team/sync.h"

namespace lore::team {
namespace {

// Taken inside the init transaction so that two inits never race on CREATE.
constexpr const char* kInitLock = "SELECT pg_advisory_xact_lock(7213411598241305001)";

constexpr const char* kSchema[] = {
    "CREATE TABLE IF NOT EXISTS lore_schema (version integer NOT NULL)",
    // One row per line of an append-only log: who wrote it where, and its hash.
    "CREATE TABLE IF NOT EXISTS lore_lines ("
    " repo text NOT NULL, machine text NOT NULL, file text NOT NULL,"
    " gen integer NOT NULL, off bigint NOT NULL, hash text NOT NULL, line bytea NOT NULL,"
    " pushed_at timestamptz NOT NULL DEFAULT now(),"
    " PRIMARY KEY (repo, machine, file, gen, off))",
    // How far each machine's log was pushed (the pull reads this first).
    "CREATE TABLE IF NOT EXISTS lore_files ("
    " repo text NOT NULL, machine text NOT NULL, file text NOT NULL,"
    " gen integer NOT NULL, size bigint NOT NULL,"
    " updated_at timestamptz NOT NULL DEFAULT now(),"
    " PRIMARY KEY (repo, machine, file))",
    // The team-wide proposal queue: every proposal seen, with what became of
    // it (queued, dropped at the quota, below the floor) and who reviews it.
    "CREATE TABLE IF NOT EXISTS lore_proposals ("
    " repo text NOT NULL, id text NOT NULL, wave text NOT NULL, machine text NOT NULL,"
    " state text NOT NULL, record text NOT NULL, queued_at timestamptz NOT NULL DEFAULT now(),"
    " claimed_by text, claimed_at timestamptz,"
    " PRIMARY KEY (repo, id))",
    // The team's current version of each memory/knowledge record.
    "CREATE TABLE IF NOT EXISTS lore_records ("
    " repo text NOT NULL, rel text NOT NULL, version text NOT NULL, base text NOT NULL,"
    " machine text NOT NULL, content bytea NOT NULL,"
    " updated_at timestamptz NOT NULL DEFAULT now(),"
    " PRIMARY KEY (repo, rel))",
    // One row per wave, locked FOR UPDATE while a proposal of the wave is queued.
    "CREATE TABLE IF NOT EXISTS lore_waves ("
    " repo text NOT NULL, wave text NOT NULL, queued bigint NOT NULL DEFAULT 0,"
    " dropped bigint NOT NULL DEFAULT 0, below_floor bigint NOT NULL DEFAULT 0,"
    " PRIMARY KEY (repo, wave))",
    // Version 2: who reviewed a proposal (state 'kept' or 'declined') and when.
    "ALTER TABLE lore_proposals ADD COLUMN IF NOT EXISTS reviewed_by text",
    "ALTER TABLE lore_proposals ADD COLUMN IF NOT EXISTS reviewed_at timestamptz",
};

Result<int> CurrentVersion(Conn& conn) {
  LORE_ASSIGN(PgResult r, conn.Exec("SELECT coalesce(max(version), 0) FROM lore_schema"));
  return static_cast<int>(r.Int(0, 0));
}

}  // namespace

Result<int> InitSchema(Conn& conn) {
  LORE_TRY(conn.Run("BEGIN"));
  auto done = [&]() -> Result<int> {
    LORE_TRY(conn.Run(kInitLock));
    LORE_TRY(conn.Run(kSchema[0]));
    LORE_ASSIGN(int before, CurrentVersion(conn));
    if (before > kSchemaVersion) {
      return Fail(ErrorCode::kUnavailable,
                  "the team database has schema version " + std::to_string(before) +
                      ", newer than this lore's " + std::to_string(kSchemaVersion),
                  "", 0, "upgrade lore on this machine");
    }
    for (const char* sql : kSchema) LORE_TRY(conn.Run(sql));
    if (before == 0) {
      LORE_TRY(conn.Run("INSERT INTO lore_schema (version) VALUES (" +
                        std::to_string(kSchemaVersion) + ")"));
    } else if (before < kSchemaVersion) {
      LORE_TRY(conn.Run("UPDATE lore_schema SET version = " + std::to_string(kSchemaVersion)));
    }
    LORE_TRY(conn.Run("COMMIT"));
    return before;
  }();
  if (!done) (void)conn.Run("ROLLBACK");
  return done;
}

Status RequireSchema(Conn& conn, const std::string& config_path) {
  auto v = CurrentVersion(conn);
  if (!v && conn.last_state() != "42P01") return tl::unexpected(v.error());
  int version = v ? *v : 0;
  if (version == kSchemaVersion) return Ok();
  if (version > kSchemaVersion) {
    return Fail(ErrorCode::kUnavailable,
                "the team database has schema version " + std::to_string(version) +
                    ", newer than this lore's " + std::to_string(kSchemaVersion),
                config_path, 0, "upgrade lore on this machine");
  }
  if (version > 0) {
    return Fail(ErrorCode::kUnavailable,
                "the team database has schema version " + std::to_string(version) +
                    ", older than this lore's " + std::to_string(kSchemaVersion),
                config_path, 0, "run 'lore team init <repo>' once to upgrade it");
  }
  return Fail(ErrorCode::kUnavailable, "the team database has no current lore schema", config_path,
              0, "run 'lore team init <repo>' once");
}

}  // namespace lore::team
