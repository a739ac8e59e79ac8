// Black-box tests of `lore search` and `lore reindex` (docs/formats.md and docs/records.md).
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "lore/index/tokenizer.h"
#include "support/run.h"
#include "support/temp_dir.h"

extern char** environ;

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

class SearchE2E : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0); }
  RunOptions Opts(std::string input = {}) const {
    return IsolatedOptions(t_.path(), "home/.lore", std::move(input));
  }
  std::string Rel(const std::string& rel) const {
    return "home/.lore/" + std::string(kKey) + "/" + rel;
  }
  std::string StorePath(const std::string& rel) const { return t_ / Rel(rel); }
  void Write(const std::string& rel, const std::string& text) { t_.Write(Rel(rel), text); }

  // Runs a search that must succeed quietly; returns the parsed JSON hits.
  Json Search(std::vector<std::string> extra) {
    std::vector<std::string> args = {"search", kRepo};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--json");
    auto r = Lore(args, Opts());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    Json j = Json::parse(r.out, nullptr, false);
    EXPECT_TRUE(j.is_array()) << r.out;
    return j;
  }
  static std::vector<std::string> Slugs(const Json& hits) {
    std::vector<std::string> out;
    for (const auto& h : hits) out.push_back(h["slug"].get<std::string>());
    return out;
  }

  TempDir t_;
};

TEST_F(SearchE2E, FindsWhatWasJustWrittenAndForgetsWhatWasDeleted) {
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(R"({"summary":"zebra crossing broke"})")).exit_code,
            0);
  EXPECT_EQ(Slugs(Search({"zebra"})), std::vector<std::string>{"raw.jsonl:1"});
  Write("memory/decisions/zebra-plan.md", "---\nstatus: open\n---\nPaint the zebra crossing.\n");
  EXPECT_EQ(Slugs(Search({"zebra", "--scope", "memory"})), std::vector<std::string>{"zebra-plan"});
  // Rewritten at once with the same size: still seen (racy mtime handling).
  Write("memory/decisions/zebra-plan.md", "---\nstatus: open\n---\nPaint the horse crossing.\n");
  EXPECT_EQ(Slugs(Search({"horse"})), std::vector<std::string>{"zebra-plan"});
  stdfs::remove(StorePath("memory/decisions/zebra-plan.md"));
  EXPECT_EQ(Slugs(Search({"horse"})), std::vector<std::string>{});
  EXPECT_EQ(Slugs(Search({"zebra"})), std::vector<std::string>{"raw.jsonl:1"});
}

// The okf/ bundle restates memory's records: a search of everything gives the
// records themselves, and the bundle is there when asked for.
TEST_F(SearchE2E, AllIsTheRecordsAndTheBundleIsAskedFor) {
  Write("memory/requests/paint-the-crossing.md",
        "---\nstatus: open\n---\nPaint the zebra crossing.\n");
  Write("okf/request-types.md",
        "---\ntitle: Request types\n---\n| paint | 1 | paint-the-zebra-crossing |\n");
  EXPECT_EQ(Slugs(Search({"zebra"})), std::vector<std::string>{"paint-the-crossing"});
  EXPECT_EQ(Slugs(Search({"zebra", "--scope", "okf"})), std::vector<std::string>{"request-types"});
}

TEST_F(SearchE2E, AnyTextIsAValidQuery) {
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(R"j({"summary":"quoted \"words\" and (parens)"})j"))
                .exit_code,
            0);
  std::string long_query;
  for (int i = 0; i < 7000; ++i) long_query += "word" + std::to_string(i % 500) + " \"(*^ ";
  for (const std::string& q : std::vector<std::string>{
           "!!!", "\"", "\"\"\"", "'", "*", "()", "NEAR(a b)", "a AND OR NOT b", "col:umn",
           "^start", "- -- ---", "\"quoted\" (parens)", long_query}) {
    auto r = Lore({"search", kRepo, q}, Opts());
    EXPECT_EQ(r.exit_code, 0) << q.substr(0, 40) << ": " << r.err;
    EXPECT_EQ(r.err, "") << q.substr(0, 40);
  }
  EXPECT_EQ(Slugs(Search({"\"quoted\" (parens"})), std::vector<std::string>{"raw.jsonl:1"});
}

TEST_F(SearchE2E, MemoryAndKnowledgeShapes) {
  Write("memory/summary.md",
        "---\nupdated_at: 2026-01-01T00:00:00Z\n---\nline 1\nline 2\nline 3\n"
        "the cache is warm\nline 5\nline 6\nline 7\nline 8\n");
  Write("memory/workflow/cache.md", "---\ndescription: cache\n---\ncache\n");
  Write("knowledge/cache-tuning.md",
        "---\nkind: howto\ndescription: Tune the cache\nmodel_invokation: true\n---\nbody\n");
  Write("knowledge/broken.md", "---\nkind: [oops\n---\ncache notes\n");
  Json mem = Search({"cache", "--scope", "memory"});
  ASSERT_EQ(mem.size(), 1u);
  EXPECT_EQ(
      mem[0].dump(),
      R"({"slug":"summary","kind":"summary","excerpt":"line 1\nline 2\nline 3\nthe cache is warm\nline 5\nline 6\nline 7","id":"memory/summary.md","size":108})");
  Json kn = Search({"cache", "--scope", "knowledge"});
  ASSERT_EQ(kn.size(), 2u);
  std::map<std::string, std::string> by_slug;
  for (const auto& h : kn) by_slug[h["slug"].get<std::string>()] = h.dump();
  EXPECT_EQ(
      by_slug["cache-tuning"],
      R"({"slug":"cache-tuning","kind":"howto","description":"Tune the cache","model_invokation":true,"excerpt":"body","id":"knowledge/cache-tuning.md","size":76})");
  EXPECT_EQ(
      by_slug["broken"],
      R"({"slug":"broken","kind":null,"description":null,"model_invokation":null,"excerpt":"cache notes","id":"knowledge/broken.md","size":32})");
  EXPECT_EQ(Slugs(Search({"cache", "--scope", "knowledge", "--kind", "howto"})),
            std::vector<std::string>{"cache-tuning"});
  EXPECT_EQ(Search({"cache", "-k", "1"}).size(), 1u);
}

TEST_F(SearchE2E, ReplacedRecordsHiddenUnlessAsked) {
  Write("memory/decisions/old-cache.md",
        "---\nstatus: replaced\nreplaced_by: new-cache\n---\nredis cache\n");
  Write("memory/decisions/new-cache.md", "---\nstatus: open\n---\nredis cache, sharded\n");
  EXPECT_EQ(Slugs(Search({"redis"})), std::vector<std::string>{"new-cache"});
  auto both = Slugs(Search({"redis", "--include-replaced"}));
  std::sort(both.begin(), both.end());
  EXPECT_EQ(both, (std::vector<std::string>{"new-cache", "old-cache"}));
}

TEST_F(SearchE2E, ExplainAndTextOutput) {
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(R"({"summary":"flaky test in ci"})")).exit_code, 0);
  auto r = Lore({"search", kRepo, "flaky", "--explain"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("raw.jsonl:1  raw/review\n  score ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(" = text "), std::string::npos);
  EXPECT_NE(r.out.find(" + expansion 0.0000 + context 0.0000 + session 0.0000 + author 0.0000 + "
                       "time 0.0000\n"
                       "    summary: flaky test in ci\n"),
            std::string::npos)
      << r.out;
  Json j = Search({"flaky", "--explain"});
  ASSERT_EQ(j.size(), 1u);
  std::vector<std::string> parts;
  for (const auto& [k, v] : j[0]["explain"].items()) parts.push_back(k);
  EXPECT_EQ(parts,
            (std::vector<std::string>{"total", "text", "expansion", "context", "session", "author",
                                      "time", "asks", "trace", "curated", "expansions"}));
  auto bad = Lore({"search", kRepo, "x", "--scope", "nowhere"}, Opts());
  EXPECT_EQ(bad.exit_code, 2);
}

TEST_F(SearchE2E, ExplainShowsAQuestionWeighedBelowItsAnswer) {
  ASSERT_EQ(
      Lore({"append-review", kRepo}, Opts(R"({"summary":"why is the build red?"})")).exit_code, 0);
  ASSERT_EQ(Lore({"append-review", kRepo},
                 Opts(R"({"summary":"the build is red because the cache is stale"})"))
                .exit_code,
            0);
  auto r = Lore({"search", kRepo, "build", "red", "--explain"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("raw.jsonl:2  raw/review\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("time 0.0000 (asks: text and expansion x 0.8000)\n"
                       "    summary: why is the build red?\n"),
            std::string::npos)
      << r.out;
  Json j = Search({"build", "red", "--explain"});
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["explain"]["asks"].get<double>(), 1);
  EXPECT_EQ(j[1]["explain"]["asks"].get<double>(), 0.8);
}

TEST_F(SearchE2E, ExplainNamesExpansionTermsAndExpandSwitchesThemOff) {
  ASSERT_EQ(Lore({"append-review", kRepo}, Opts(R"({"summary":"I need to destress after work"})"))
                .exit_code,
            0);
  ASSERT_EQ(
      Lore({"append-review", kRepo}, Opts(R"({"summary":"the build broke again"})")).exit_code, 0);
  auto r = Lore({"search", kRepo, "how", "to", "de-stress", "--explain"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  expanded: destress (compound of de-stress, weight 0.5000)\n"),
            std::string::npos)
      << r.out;
  Json j = Search({"de-stress", "--explain"});
  ASSERT_EQ(j.size(), 1u);
  const Json& e = j[0]["explain"];
  ASSERT_EQ(e["expansions"].size(), 1u) << e.dump();
  EXPECT_EQ(e["expansions"][0]["term"], "destress");
  EXPECT_EQ(e["expansions"][0]["stage"], "compound");
  EXPECT_GT(e["expansion"].get<double>(), 0);
  EXPECT_EQ(e["text"].get<double>(), 0);
  EXPECT_EQ(Search({"de-stress", "--expand", "none"}).size(), 0u);
  EXPECT_EQ(Search({"de-stress", "--expand", "compounds"}).size(), 1u);
  auto bad = Lore({"search", kRepo, "x", "--expand", "telepathy"}, Opts());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("unknown expansion stage 'telepathy'"), std::string::npos) << bad.err;
}

TEST_F(SearchE2E, ExplainNamesAWordReadAsItsVerb) {
  if (lore::index::IrregularVerb("bought").empty()) GTEST_SKIP() << "built without WordNet data";
  ASSERT_EQ(
      Lore({"append-review", kRepo}, Opts(R"({"summary":"we buy bread at the market"})")).exit_code,
      0);
  auto r = Lore({"search", kRepo, "who", "bought", "bread", "--explain"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  expanded: buy (irregular of bought, weight 1.0000)\n"), std::string::npos)
      << r.out;
  Json j = Search({"bought", "--explain"});
  ASSERT_EQ(j.size(), 1u);
  const Json& e = j[0]["explain"];
  ASSERT_EQ(e["expansions"].size(), 1u) << e.dump();
  EXPECT_EQ(e["expansions"][0]["term"], "buy");
  EXPECT_EQ(e["expansions"][0]["stage"], "irregular");
  EXPECT_EQ(e["expansions"][0]["of"], "bought");
  EXPECT_GT(e["text"].get<double>(), 0);
  EXPECT_EQ(e["expansion"].get<double>(), 0);
}

TEST_F(SearchE2E, CooccurrenceExpansionIsNamedAndLearnedOnce) {
  for (const char* text : {"guitar practice with the band", "the band needs a new guitar",
                           "band rehearsal, bring the guitar", "our band played until midnight",
                           "the build broke again", "lunch at noon with the team",
                           "the build passed", "practice makes the team better"}) {
    std::string rec = std::string(R"({"summary":")") + text + R"("})";
    ASSERT_EQ(Lore({"append-review", kRepo}, Opts(rec)).exit_code, 0);
  }
  EXPECT_EQ(Search({"guitar"}).size(), 3u);  // off by default
  for (int round = 0; round < 2; ++round) {  // learned, then read from the index
    auto r = Lore({"search", kRepo, "guitar", "--expand", "cooc", "--explain"}, Opts());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("  expanded: band (cooc of guitar, weight 0.2000)\n"), std::string::npos)
        << r.out;
    Json j = Search({"guitar", "--expand", "cooc", "--explain"});
    ASSERT_EQ(j.size(), 4u);
    EXPECT_EQ(j[3]["explain"]["expansions"][0]["stage"], "cooc");
    EXPECT_EQ(j[3]["explain"]["text"].get<double>(), 0);
  }
}

TEST_F(SearchE2E, ReindexGivesTheSameResults) {
  for (int i = 0; i < 30; ++i) {
    std::string rec = R"({"summary":"deploy step )" + std::to_string(i) +
                      (i % 3 ? " rollback" : " canary") + R"("})";
    ASSERT_EQ(Lore({"append-review", kRepo}, Opts(rec)).exit_code, 0);
  }
  Write("knowledge/deploys.md",
        "---\nkind: howto\ndescription: Deploy with a canary\n---\nrollback fast\n");
  std::string before = Search({"deploy canary rollback"}).dump();
  auto r = Lore({"reindex", kRepo}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "reindexed " + StorePath("index.sqlite") + ": 3 files, 32 records\n");
  EXPECT_EQ(Search({"deploy canary rollback"}).dump(), before);
  for (const char* s : {"", "-wal", "-shm"})
    stdfs::remove(StorePath(std::string("index.sqlite") + s));
  EXPECT_EQ(Search({"deploy canary rollback"}).dump(), before);
  EXPECT_EQ(Lore({"reindex", "git@github.com:acme/none.git"}, Opts()).exit_code, 1);
}

// Starts `script` under bash; returns its pid.
pid_t Spawn(const std::string& script, const std::map<std::string, std::string>& env) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) envs.push_back(*e);
  for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string bash = "/bin/bash", c = "-c", s = script;
  char* argv[] = {bash.data(), c.data(), s.data(), nullptr};
  pid_t pid = -1;
  posix_spawn(&pid, bash.c_str(), nullptr, nullptr, argv, envp.data());
  return pid;
}

TEST_F(SearchE2E, TwoWritersAndASearcherNeverFail) {
  std::map<std::string, std::string> env = {{"LORE_HOME", t_ / "home/.lore"},
                                            {"HOME", t_ / "home"},
                                            {"LORE", LoreBinary()},
                                            {"REPO", kRepo},
                                            {"STOP", t_ / "stop"},
                                            {"STORE", StorePath("")}};
  // Writer 1 appends captures and searches; writer 2 replaces, adds and
  // removes memory files and searches: both update the index.
  std::string w1 = R"(i=0; while [ ! -e "$STOP" ]; do i=$((i+1));
      echo "{\"summary\":\"concurrent capture $i\"}" | "$LORE" append-review "$REPO" || exit 1;
      "$LORE" search "$REPO" capture >/dev/null || exit 2; done)";
  std::string w2 =
      R"(i=0; mkdir -p "$STORE/memory/decisions"; while [ ! -e "$STOP" ]; do i=$((i+1));
      f="$STORE/memory/decisions/d$((i % 7)).md";
      printf -- '---\nstatus: open\n---\nconcurrent decision %d\n' $i > "$f.tmp" && mv "$f.tmp" "$f" || exit 1;
      if [ $((i % 5)) = 0 ]; then rm -f "$STORE/memory/decisions/d$((i % 3)).md"; fi;
      "$LORE" search "$REPO" decision >/dev/null || exit 2; done)";
  pid_t p1 = Spawn(w1 + " 2>" + t_ / "w1.err", env);
  pid_t p2 = Spawn(w2 + " 2>" + t_ / "w2.err", env);
  ASSERT_GT(p1, 0);
  ASSERT_GT(p2, 0);
  int failures = 0;
  // 1000 searches, or as many as 40 s allow once 50 are done (an ASan build
  // on a loaded machine runs a search in about a second).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  for (int round = 0;
       round < 1000 && failures < 5 && (round < 50 || std::chrono::steady_clock::now() < deadline);
       ++round) {
    auto r =
        Lore({"search", kRepo, round % 2 ? "concurrent capture" : "concurrent decision", "--json"},
             Opts());
    if (r.exit_code != 0 || !r.err.empty()) {
      ++failures;
      ADD_FAILURE() << "round " << round << ": exit " << r.exit_code << ": " << r.err;
    }
  }
  t_.Write("stop", "");
  int s1 = 0, s2 = 0;
  waitpid(p1, &s1, 0);
  waitpid(p2, &s2, 0);
  EXPECT_TRUE(WIFEXITED(s1) && WEXITSTATUS(s1) == 0) << t_.Read("w1.err");
  EXPECT_TRUE(WIFEXITED(s2) && WEXITSTATUS(s2) == 0) << t_.Read("w2.err");
  EXPECT_EQ(t_.Read("w1.err"), "");
  EXPECT_EQ(t_.Read("w2.err"), "");
  // The index agrees with the files once the dust settles.
  auto hits = Search({"concurrent capture", "-k", "1000", "--scope", "raw"});
  std::string raw = t_.Read(Rel("raw.jsonl"));
  // (-k is at most 1000; a fast machine's writer appends more.)
  EXPECT_EQ(hits.size(),
            std::min<size_t>(1000, static_cast<size_t>(std::count(raw.begin(), raw.end(), '\n'))));
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
