// `lore review` on a team store: each reviewer machine reviews the batch it
// claimed from the team queue, an answer for a proposal another machine
// holds is refused, decisions travel (the proposers' queues are cleared by
// their next sync), and without the server the local queue is reviewed.
#include <nlohmann/json.hpp>
#include <set>

#include "e2e/team_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;

class TeamReviewTest : public TeamTest {
 protected:
  void Propose(int m, const std::string& wave, const std::string& subject) {
    RunOptions o = Opts(m);
    o.env["LORE_WAVE"] = wave;
    auto r = Lore({"propose", kTeamRepo, "--type", "convention", "--subject", subject, "--insight",
                   "bind parameters in " + subject, "--evidence", "W-1", "--confidence", "0.9"},
                  o);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  // The ids of `--batches --json` output, in order.
  static std::vector<std::string> Ids(const Json& batches) {
    std::vector<std::string> out;
    for (const auto& b : batches)
      for (const auto& id : b["ids"]) out.push_back(id.get<std::string>());
    return out;
  }
  // Answers keeping the first `keep` proposals of every batch.
  static std::string Answers(const Json& batches, size_t keep) {
    Json a = Json::object();
    a["queue"] = batches.empty() ? Json("") : batches[0]["queue"];
    a["batches"] = Json::array();
    for (const auto& b : batches) {
      Json picked = Json::array();
      const auto& options = b["input"]["questions"][0]["options"];
      for (size_t k = 0; k < keep && k < b["ids"].size(); ++k)
        picked.push_back(options[k]["label"]);
      a["batches"].push_back({{"batch", b["batch"]}, {"picked", picked}});
    }
    return a.dump();
  }
  RunResult Apply(int m, const std::string& answers, const std::string& name) {
    const std::string path = t_ / name;
    std::ofstream(path) << answers;
    return Lore({"review", kTeamRepo, "--session", "s-" + Machine(m), "--answers", path, "--json"},
                Opts(m));
  }
  // Every line of machine `m`'s `log`, its own and the copies of the others'.
  std::string Everywhere(int m, const std::string& log) const {
    std::string all = Read(Store(m) + "/" + log);
    for (int o = 1; o <= 4; ++o) all += Read(Store(m) + "/team/" + Machine(o) + "/" + log);
    return all;
  }
};

TEST_F(TeamReviewTest, TwoReviewersTakeDisjointBatchesAndTheDecisionsTravel) {
  for (int m = 1; m <= 4; ++m) MakeMachine(m);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  for (int i = 0; i < 3; ++i) Propose(1, "w1", "alpha rule " + std::to_string(i));
  for (int i = 0; i < 3; ++i) Propose(2, "w2", "beta rule " + std::to_string(i));
  ASSERT_EQ(Sync(1).exit_code, 0);
  ASSERT_EQ(Sync(2).exit_code, 0);
  ASSERT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE state = 'queued'"), "6");

  // Two reviewers at once, three proposals each.
  std::vector<std::string> args = {LoreBinary(), "review",  kTeamRepo, "--batches",
                                   "--json",     "--claim", "3"};
  Child c3(args, Opts(3).env, t_ / "b3", t_ / "e3");
  Child c4(args, Opts(4).env, t_ / "b4", t_ / "e4");
  ASSERT_EQ(c3.Wait(), 0) << Read(t_ / "e3");
  ASSERT_EQ(c4.Wait(), 0) << Read(t_ / "e4");
  EXPECT_EQ(Read(t_ / "e3") + Read(t_ / "e4"), "");
  const Json b3 = Json::parse(Read(t_ / "b3")), b4 = Json::parse(Read(t_ / "b4"));
  const auto ids3 = Ids(b3), ids4 = Ids(b4);
  ASSERT_EQ(ids3.size(), 3u);
  ASSERT_EQ(ids4.size(), 3u);
  std::set<std::string> all(ids3.begin(), ids3.end());
  for (const auto& id : ids4) EXPECT_TRUE(all.insert(id).second) << "claimed by both: " << id;
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE claimed_by IN ('m3', 'm4')"), "6");

  // Machine 3 keeps two and declines one.
  auto r3 = Apply(3, Answers(b3, 2), "a3.json");
  ASSERT_EQ(r3.exit_code, 0) << r3.out << r3.err;
  EXPECT_EQ(Json::parse(r3.out)["written"], 2) << r3.out;
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE reviewed_by = 'm3'"), "3");

  // Machine 4's claims expire and machine 3 takes them over: machine 4's
  // answers (to the same batches) are refused and change nothing.
  Sql("UPDATE lore_proposals SET claimed_at = now() - interval '2 hours' WHERE claimed_by = 'm4'");
  ASSERT_EQ(Lore({"review", kTeamRepo, "--batches", "--json", "--claim", "3"}, Opts(3)).exit_code,
            0);
  const std::string a4 = Answers(b4, 1);
  auto before4 = Snapshot(4);
  auto refused = Apply(4, a4, "a4.json");
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_EQ(Lines(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("is claimed by machine m3"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("nothing was changed"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(Snapshot(4), before4);
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE state = 'queued'"), "3");

  // Given back, machine 4 claims them again (the same batches) and answers.
  Sql("UPDATE lore_proposals SET claimed_at = now() - interval '2 hours' WHERE claimed_by = 'm3'");
  auto again = Lore({"review", kTeamRepo, "--batches", "--json", "--claim", "3"}, Opts(4));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Ids(Json::parse(again.out)), ids4);
  auto r4 = Apply(4, a4, "a4.json");
  ASSERT_EQ(r4.exit_code, 0) << r4.out << r4.err;
  EXPECT_EQ(Sql("SELECT state || ' ' || count(*) FROM lore_proposals GROUP BY state ORDER BY "
                "state"),
            "declined 3\nkept 3");
  EXPECT_EQ(Sql("SELECT reviewed_by || ' ' || count(*) FROM lore_proposals GROUP BY reviewed_by "
                "ORDER BY reviewed_by"),
            "m3 3\nm4 3");
  const std::string kept = Sql("SELECT id FROM lore_proposals WHERE state = 'kept' ORDER BY id");
  const std::string declined =
      Sql("SELECT id FROM lore_proposals WHERE state = 'declined' ORDER BY id");

  // After everyone synced: the proposers' queues are empty, the kept
  // learnings are on every machine, the declined ones in the rejected logs.
  for (int m : {3, 4, 1, 2, 3}) {
    auto s = Sync(m);
    ASSERT_EQ(s.exit_code, 0) << s.err;
  }
  for (int m : {1, 2}) {
    EXPECT_EQ(Read(Store(m) + "/proposals.jsonl"), "") << "machine " << m;
  }
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  };
  for (int m = 1; m <= 4; ++m) {
    const std::string learnings = Everywhere(m, "learnings.jsonl");
    const std::string rejected = Everywhere(m, "proposals.rejected.jsonl");
    for (const auto& id : split(kept))
      EXPECT_NE(learnings.find("\"" + id + "\""), std::string::npos) << "m" << m << " " << id;
    for (const auto& id : split(declined))
      EXPECT_NE(rejected.find("\"" + id + "\""), std::string::npos) << "m" << m << " " << id;
  }
  auto none = Lore({"review", kTeamRepo, "--batches", "--json"}, Opts(1));
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "[]\n");
}

TEST_F(TeamReviewTest, WithoutTheServerTheLocalQueueIsReviewedAfterOneWarning) {
  MakeMachine(1, "postgresql:///lore?host=" + (t_ / "no-server-here") + "&user=postgres");
  MakeMachine(2);  // reachable, but nobody ran 'lore team init'
  for (int m : {1, 2}) {
    Propose(m, "w1", "offline rule a");
    Propose(m, "w1", "offline rule b");
    auto b = Lore({"review", kTeamRepo, "--batches", "--json"}, Opts(m));
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(Lines(b.err), 1) << b.err;
    EXPECT_EQ(b.err.rfind("lore: warning: ", 0), 0u) << b.err;
    const Json batches = Json::parse(b.out);
    ASSERT_EQ(Ids(batches).size(), 2u) << b.out;
    auto r = Apply(m, Answers(batches, 1), "a" + Machine(m) + ".json");
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(Json::parse(r.out)["written"], 1);
    EXPECT_EQ(Json::parse(r.out)["declined"], 1);
    EXPECT_EQ(Read(Store(m) + "/proposals.jsonl"), "") << "the local queue was reviewed";
  }
}

TEST_F(TeamReviewTest, AReviewThatCannotTellTheTeamIsToldByTheNextSync) {
  MakeMachine(1);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  Propose(1, "w1", "delta rule 0");
  Propose(1, "w1", "delta rule 1");
  ASSERT_EQ(Sync(1).exit_code, 0);
  auto b = Lore({"review", kTeamRepo, "--batches", "--json"}, Opts(1));
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const Json batches = Json::parse(b.out);
  ASSERT_EQ(Ids(batches).size(), 2u);
  // The server goes away between the batches and the answers.
  WriteConfig(1, "postgresql:///lore?host=" + (t_ / "no-server-here") + "&user=postgres");
  auto r = Apply(1, Answers(batches, 1), "a.json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("lore: warning: cannot reach the team database", 0), 0u) << r.err;
  EXPECT_EQ(Json::parse(r.out)["written"], 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE state = 'queued'"), "2");
  WriteConfig(1, pg_->Url(db_));
  auto s = Sync(1);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("proposals: 2 reviewed by the team, cleared from the local queue"),
            std::string::npos)
      << s.out;
  EXPECT_EQ(Sql("SELECT state || ' ' || reviewed_by FROM lore_proposals ORDER BY state"),
            "declined m1\nkept m1");
  EXPECT_EQ(Read(Store(1) + "/proposals.jsonl"), "");
}

TEST_F(TeamReviewTest, DecisionFlagsDecideTheClaimedBatchOnly) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  Propose(1, "w1", "gamma rule 0");
  Propose(1, "w1", "gamma rule 1");
  ASSERT_EQ(Sync(1).exit_code, 0);
  Propose(2, "w2", "local only");  // not synced: not in the team queue
  auto r = Lore({"review", kTeamRepo, "--session", "s2", "--approve-all", "--claim", "1", "--json"},
                Opts(2));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Json::parse(r.out)["written"], 1) << r.out;
  EXPECT_EQ(Sql("SELECT state || ' ' || coalesce(reviewed_by, '-') FROM lore_proposals ORDER BY "
                "state"),
            "kept m2\nqueued -");
  EXPECT_EQ(Lines(Read(Store(2) + "/proposals.jsonl")), 1) << "the local queue is not reviewed";
  EXPECT_EQ(Lines(Read(Store(2) + "/learnings.jsonl")), 1);
}

TEST_F(TeamReviewTest, AVersionOneSchemaIsRefusedUntilInitUpgradesIt) {
  MakeMachine(1);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  Sql("ALTER TABLE lore_proposals DROP COLUMN reviewed_by, DROP COLUMN reviewed_at; "
      "UPDATE lore_schema SET version = 1");
  auto old = Sync(1);
  EXPECT_EQ(old.exit_code, 1);
  EXPECT_EQ(Lines(old.err), 1) << old.err;
  EXPECT_NE(old.err.find("schema version 1, older than this lore's 2"), std::string::npos)
      << old.err;
  EXPECT_NE(old.err.find("run 'lore team init <repo>' once to upgrade it"), std::string::npos);
  auto up = Team(1, "init");
  ASSERT_EQ(up.exit_code, 0) << up.err;
  EXPECT_NE(up.out.find("team schema upgraded (version 2)"), std::string::npos) << up.out;
  auto same = Team(1, "init");
  EXPECT_NE(same.out.find("team schema version 2 already in place"), std::string::npos);
  EXPECT_EQ(Sql("SELECT count(*) FROM information_schema.columns WHERE table_name = "
                "'lore_proposals' AND column_name IN ('reviewed_by', 'reviewed_at')"),
            "2");
  EXPECT_EQ(Sync(1).exit_code, 0);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
