// Compatibility with the original Node.js tool, checked with Node itself:
// every line lore writes is exactly what JSON.stringify writes for the same
// value, and a record written the Node way is promoted to the learning line
// the original's object spreads would produce. Skipped without node.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

class CompatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* p : {"/usr/bin/node", "/usr/local/bin/node"}) {
      if (stdfs::exists(p)) node_ = p;
    }
    if (node_.empty()) {
      // scripts/install-deps.sh installs it: in CI its absence is a failure.
      if (std::getenv("CI") != nullptr) FAIL() << "node is missing in CI";
      GTEST_SKIP() << "node is not installed";
    }
  }
  RunOptions Opts() const {
    RunOptions o;
    o.env["LORE_HOME"] = t_ / "stores";
    o.env["HOME"] = t_ / "home";
    return o;
  }
  std::string File(const std::string& name) const {
    return t_ / ("stores/" + std::string(kKey) + "/" + name);
  }
  RunResult Node(const std::string& script, std::vector<std::string> args = {}) {
    std::vector<std::string> argv{node_, "-e", script};
    argv.insert(argv.end(), args.begin(), args.end());
    return lore::testing::Run(argv);
  }

  TempDir t_;
  std::string node_;
};

// Prints every line of the files given that JSON.stringify(JSON.parse(line))
// does not reproduce byte for byte; exits 1 if there was one.
constexpr const char* kRoundTrip = R"(
const fs = require('fs');
let bad = 0, n = 0;
for (const f of process.argv.slice(1)) {
  for (const l of fs.readFileSync(f, 'utf8').split('\n')) {
    if (l.length === 0) continue;
    n++;
    if (JSON.stringify(JSON.parse(l)) !== l) { bad++; console.log(f + ': ' + l); }
  }
}
console.log('lines ' + n);
process.exit(bad ? 1 : 0);
)";

TEST_F(CompatTest, EveryLineLoreWritesIsWhatJsonStringifyWrites) {
  const char* values[][3] = {
      {"1", "plain", "W1"},
      {"0.85", "\u00fcml\u00e4ut \"quoted\" back\\slash \t tab \u2603 \U0001F600", "W1"},
      {"0.5", "ctl \x01 and / slash", "W2"},
      {"0.30000000000000004", "float", "W2"},
      {"0.00001", "small", "W3"},
      {"1e-7", "tiny", "W3"}};
  for (const auto& v : values) {
    auto r = Lore({"propose",
                   kRepo,
                   "--type",
                   "proven-pattern",
                   "--subject",
                   v[1],
                   "--insight",
                   v[1],
                   "--evidence",
                   v[1],
                   "--confidence",
                   v[0],
                   "--wave",
                   v[2],
                   "--agent",
                   "bot",
                   "--file-paths",
                   "src/a.cc,docs/\u00e9.md",
                   "--confidence-floor",
                   "0"},
                  Opts());
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  auto rt = Node(kRoundTrip, {File("proposals.jsonl")});
  EXPECT_EQ(rt.exit_code, 0) << rt.out << rt.err;
  auto review = Lore(
      {"review", kRepo, "--session", "s-1", "--approve-all", "--decline", "x", "--json"}, Opts());
  // "x" is not an id: the review refuses before writing anything.
  EXPECT_EQ(review.exit_code, 1);
  review = Lore({"review", kRepo, "--session", "s-1", "--approve-all"}, Opts());
  ASSERT_EQ(review.exit_code, 0) << review.err;
  ASSERT_EQ(Lore({"propose", kRepo, "--type", "convention", "--subject", "d", "--insight", "i",
                  "--evidence", "e", "--confidence", "0.9", "--wave", "W4"},
                 Opts())
                .exit_code,
            0);
  ASSERT_EQ(Lore({"review", kRepo, "--session", "s-2", "--decline-all"}, Opts()).exit_code, 0);
  rt = Node(kRoundTrip, {File("learnings.jsonl"), File("proposals.rejected.jsonl"),
                         File("proposals-archive.jsonl")});
  EXPECT_EQ(rt.exit_code, 0) << rt.out << rt.err;
  EXPECT_NE(rt.out.find("lines 14"), std::string::npos) << rt.out;
}

// Writes a record the way the original's createProposalRecord builds it,
// then (after lore promoted it) rebuilds the learning with the original's
// spreads and compares it with lore's line.
constexpr const char* kNodeRecord = R"(
const fs = require('fs'), crypto = require('crypto');
const rec = { id: crypto.randomUUID(), created_at: new Date().toISOString(), wave_id: 'W5',
  type: 'fragile-file', subject: 'x \u00e9 "y"', insight: 'i', evidence: 'e', confidence: 0.75,
  schema_version: 1, proposed_by_agent: 'code-implementer' };
fs.appendFileSync(process.argv[1], JSON.stringify(rec) + '\n');
fs.writeFileSync(process.argv[2], JSON.stringify(rec));
)";

constexpr const char* kNodeLearning = R"(
const fs = require('fs');
const rec = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const { proposed_by_agent: _drop, ...base } = rec;
let l = { ...base, schema_version: 1, source_session: 'sess-n', scope: 'local', occurrences: 1,
          _provenance: `agent-proposed@${rec.wave_id}` };
l = { ...l, created_at: l.created_at,
      expires_at: new Date(Date.parse(l.created_at) + 45 * 86400 * 1000).toISOString(),
      schema_version: l.schema_version ?? 1 };
l = { ...l, schema_version: l.schema_version, scope: l.scope ?? 'local',
      host_class: l.host_class ?? null, anonymized: l.anonymized ?? false };
const want = JSON.stringify(l) + '\n';
const got = fs.readFileSync(process.argv[2], 'utf8');
if (got !== want) { console.log('want ' + want + 'got  ' + got); process.exit(1); }
)";

TEST_F(CompatTest, RecordWrittenByNodeBecomesTheOriginalsLearning) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  auto w = Node(kNodeRecord, {File("proposals.jsonl"), t_ / "record.json"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  auto list = Lore({"proposals", kRepo, "--json"}, Opts());
  EXPECT_NE(list.out.find("\"proposed_by_agent\":\"code-implementer\""), std::string::npos)
      << list.out;
  auto r = Lore({"review", kRepo, "--session", "sess-n", "--approve-all"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto check = Node(kNodeLearning, {t_ / "record.json", File("learnings.jsonl")});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
