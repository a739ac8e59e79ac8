// Black-box tests of `lore lint <repo> [--json]`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::ordered_json;

constexpr const char* kRepo = "https://github.com/acme/widgets";
constexpr const char* kKey = "github.com_acme_widgets";
constexpr const char* kTimes =
    "created_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n";

class LintTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0); }
  RunOptions Opts() const { return IsolatedOptions(t_.path(), "stores"); }
  void Put(const std::string& rel, const std::string& text) {
    t_.Write(std::string("stores/") + kKey + "/" + rel, text);
  }
  std::string Path(const std::string& rel) const {
    return t_ / (std::string("stores/") + kKey + "/" + rel);
  }
  void PutDecision(const std::string& slug, const std::string& extra = "") {
    Put("memory/decisions/" + slug + ".md",
        "---\n" + std::string(kTimes) + "status: open\nsources: []\n" + extra + "---\nBody\n");
  }
  TempDir t_;
};

TEST_F(LintTest, CleanStoreExitsZero) {
  PutDecision("use-sqlite");
  Put("memory/summary.md", "---\nupdated_at: 2026-01-02T03:04:05Z\n---\n# Summary\n");
  auto r = Lore({"lint", kRepo}, Opts());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "lint: 0 errors, 0 warnings in 2 records\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(LintTest, WarningsArePrintedWithExitZero) {
  PutDecision("use-sqlite");
  PutDecision("use-sqlite3");
  PutDecision("uses-sqlite");
  auto r = Lore({"lint", kRepo}, Opts());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: slug 'use-sqlite' is within edit distance 2 of 'use-sqlite3' and "
                       "'uses-sqlite': " +
                       Path("memory/decisions/use-sqlite.md") + "; merge"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("lint: 0 errors, 3 warnings in 3 records\n"), std::string::npos) << r.out;
}

TEST_F(LintTest, ErrorsExitOneAndNameFileAndLine) {
  Put("memory/decisions/broken.md", "---\n" + std::string(kTimes) + "status: [open\n---\nb\n");
  PutDecision("cyc-a", "replaced_by: cyc-b\n");
  PutDecision("cyc-b", "replaced_by: cyc-a\n");
  Put("knowledge/Bad Name.md", "---\n---\n");
  auto r = Lore({"lint", kRepo}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("error: frontmatter is not valid YAML (end of sequence flow not found): " +
                       Path("memory/decisions/broken.md") + ":4; "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("error: 'replaced_by' forms a cycle: cyc-a -> cyc-b -> cyc-a: " +
                       Path("memory/decisions/cyc-a.md") + ":6; "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("error: slug 'Bad Name' is not valid: " + Path("knowledge/Bad Name.md") +
                       "; use lower-case"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("e.g. 'bad-name'"), std::string::npos);
}

TEST_F(LintTest, JsonShape) {
  PutDecision("use-sqlite", "replaced_by: ghost\n");
  auto r = Lore({"lint", kRepo, "--json"}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  Json j = Json::parse(r.out);
  std::vector<std::string> keys;
  for (auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"store", "records", "errors", "warnings", "findings"}));
  EXPECT_EQ(j["store"], t_ / (std::string("stores/") + kKey));
  EXPECT_EQ(j["records"], 1);
  EXPECT_EQ(j["errors"], 2);
  EXPECT_EQ(j["warnings"], 0);
  ASSERT_EQ(j["findings"].size(), 2u);
  EXPECT_EQ(j["findings"][0].dump(),
            Json({{"severity", "error"},
                  {"rule", "replaced-status"},
                  {"path", Path("memory/decisions/use-sqlite.md")},
                  {"line", 6},
                  {"field", "status"},
                  {"message", "'replaced_by' is set but 'status' is 'open'"},
                  {"repair", "set 'status: replaced', or remove 'replaced_by'"}})
                .dump());
  EXPECT_EQ(j["findings"][1]["rule"], "missing-reference");
}

TEST_F(LintTest, MissingStoreIsAnError) {
  auto r = Lore({"lint", "https://github.com/acme/other"}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("lore: no store for this repository: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
