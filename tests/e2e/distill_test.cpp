// Black-box tests of lore distill (docs/distill.md): a fixed store gives
// the expected pages byte for byte, a second run changes nothing, a bad raw
// line stops it with the capture verbs' error and leaves okf/ alone, and the
// index stays within its cap on a large log.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;

constexpr const char* kRemote = "https://github.com/acme/widgets";
constexpr const char* kKey = "github.com_acme_widgets";

std::string Slurp(const stdfs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every file under `dir` (relative path -> bytes), hidden ones included.
std::map<std::string, std::string> Files(const stdfs::path& dir) {
  std::map<std::string, std::string> out;
  if (!stdfs::exists(dir)) return out;
  for (auto& p : stdfs::recursive_directory_iterator(dir)) {
    if (p.is_regular_file()) out[stdfs::relative(p.path(), dir).string()] = Slurp(p.path());
  }
  return out;
}

class DistillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stdfs::create_directories(t_ / "stores");
    stdfs::copy(stdfs::path(LORE_SOURCE_DIR) / "tests/fixtures/distill/store", store(),
                stdfs::copy_options::recursive);
    for (auto& p : stdfs::recursive_directory_iterator(store())) {
      stdfs::permissions(p.path(), p.is_directory()
                                       ? stdfs::perms::owner_all
                                       : stdfs::perms::owner_read | stdfs::perms::owner_write);
    }
  }
  RunOptions Opts(std::string input = {}) const {
    RunOptions o;
    o.input = std::move(input);
    o.env["LORE_HOME"] = t_ / "stores";
    o.env["XDG_CONFIG_HOME"] = std::nullopt;
    return o;
  }
  std::string store() const { return t_ / (std::string("stores/") + kKey); }
  stdfs::path okf() const { return stdfs::path(store()) / "okf"; }

  TempDir t_;
};

TEST_F(DistillTest, FixedStoreGivesExpectedPagesByteForByte) {
  std::string raw_before = Slurp(stdfs::path(store()) / "raw.jsonl");
  auto r = Lore({"distill", kRemote}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "distilled 9 raw records, 2 learnings, 2 open decisions into " + store() +
                       "/okf (decisions.md, gotchas.md, index.md, learnings.md, request-types.md, "
                       "slicing-outcomes.md)\n");
  auto expected = Files(stdfs::path(LORE_SOURCE_DIR) / "tests/fixtures/distill/expected/okf");
  auto actual = Files(okf());
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [name, bytes] : expected) EXPECT_EQ(actual[name], bytes) << name;
  EXPECT_EQ(Slurp(stdfs::path(store()) / "raw.jsonl"), raw_before);
  // Every page: exactly title, updated, tags; files 0600, the folder 0700.
  for (const auto& [name, bytes] : actual) {
    if (name == "notes.md") continue;
    EXPECT_EQ(bytes.rfind("---\ntitle: ", 0), 0u) << name;
    size_t end = bytes.find("\n---\n", 4);
    ASSERT_NE(end, std::string::npos) << name;
    std::string front = bytes.substr(4, end - 4);
    EXPECT_EQ(std::count(front.begin(), front.end(), '\n'), 2) << name;
    EXPECT_NE(front.find("\nupdated: "), std::string::npos) << name;
    EXPECT_NE(front.find("\ntags: ["), std::string::npos) << name;
    struct stat st;
    ASSERT_EQ(::stat((okf() / name).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << name;
  }
  struct stat st;
  ASSERT_EQ(::stat(okf().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // The bundle is a valid index for the capture verbs; `lore check`'s one
  // complaint is the fixture's malformed learnings line, which distill skips.
  EXPECT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  auto check = Lore({"check", kRemote}, Opts());
  EXPECT_EQ(check.err, "lore: malformed line (not valid JSON: unexpected 'n'): " + store() +
                           "/learnings.jsonl:3; fix that line's JSON by hand or move it to "
                           "another file (lore skips it meanwhile)\n");
}

TEST_F(DistillTest, SecondRunChangesNothing) {
  ASSERT_EQ(Lore({"distill", kRemote}, Opts()).exit_code, 0);
  auto first = Files(okf());
  struct stat before;
  ASSERT_EQ(::stat((okf() / "index.md").c_str(), &before), 0);
  auto r = Lore({"distill", kRemote}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("unchanged: 9 raw records", 0), 0u) << r.out;
  EXPECT_EQ(Files(okf()), first);
  struct stat after;
  ASSERT_EQ(::stat((okf() / "index.md").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  // Other hidden leftovers: none but lore's own bookkeeping.
  for (auto& p : stdfs::directory_iterator(store())) {
    std::string name = p.path().filename().string();
    EXPECT_TRUE(name[0] != '.' || name == ".distill.lock" || name == ".lore-raw.check") << name;
  }
}

TEST_F(DistillTest, NewInputRewritesTheBundleAndDropsStalePages) {
  ASSERT_EQ(Lore({"distill", kRemote}, Opts()).exit_code, 0);
  // Resolve both open decisions: decisions.md disappears, the index stops linking it.
  for (const char* slug : {"use-sqlite", "cache-size"}) {
    std::string p = store() + "/memory/decisions/" + slug + ".md";
    std::string text = Slurp(p);
    text.replace(text.find("status: open"), 12, "status: resolved");
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }
  auto r = Lore({"distill", kRemote}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(stdfs::exists(okf() / "decisions.md"));
  std::string index = Slurp(okf() / "index.md");
  EXPECT_EQ(index.find("decisions.md"), std::string::npos) << index;
  EXPECT_TRUE(stdfs::exists(okf() / "notes.md"));
}

TEST_F(DistillTest, MalformedRawLineStopsItAndLeavesOkfUnchanged) {
  ASSERT_EQ(Lore({"distill", kRemote}, Opts()).exit_code, 0);
  auto before = Files(okf());
  std::ofstream(store() + "/raw.jsonl", std::ios::app) << "{\"finding\": \"cut\"\n";
  auto r = Lore({"distill", kRemote}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  // The very error the capture verbs give for the same line.
  auto capture = Lore({"append-review", kRemote}, Opts(R"({"finding":"x"})"));
  EXPECT_EQ(capture.exit_code, 1);
  EXPECT_EQ(r.err, capture.err);
  EXPECT_EQ(r.err,
            "lore: malformed line (not valid JSON: JSON text ends inside a value): " + store() +
                "/raw.jsonl:11; fix that line's JSON by hand or move it to another file "
                "(raw.jsonl is append-only: lore never rewrites it)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Files(okf()), before);
}

TEST_F(DistillTest, EmptyStoreKeepsAnEmptyIndex) {
  TempDir home;
  RunOptions o;
  o.env["LORE_HOME"] = home.path();
  ASSERT_EQ(Lore({"ensure", "https://example.org/empty"}, o).exit_code, 0);
  std::string index_path = home.path() + "/example.org_empty/okf/index.md";
  std::string before = Slurp(index_path);
  auto r = Lore({"distill", "https://example.org/empty"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(index_path), before);
  EXPECT_EQ(r.out.rfind("unchanged: 0 raw records", 0), 0u) << r.out;
}

TEST_F(DistillTest, IndexStaysWithinItsCapWith100000Records) {
  {
    std::ofstream raw(store() + "/raw.jsonl", std::ios::binary | std::ios::trunc);
    std::string long_text(40, 'w');
    for (int i = 0; i < 100000; ++i) {
      if (i % 3 == 0) {
        raw << R"({"ticket_id":"T-)" << i << R"(","verbs":["v)" << i % 50 << R"("],"traits":["t)"
            << i % 70 << R"("],"verdict":"verdict-)" << i % 9 << R"(","reason":"reason )" << i
            << ' ' << long_text << R"(","kind":"slicing","recorded_at":"2026-11-)" << 10 + i % 20
            << R"(T00:00:00Z"})" << '\n';
      } else {
        raw << R"({"ticket":"T-)" << i << R"(","finding":"finding number )" << i % 5000 << ' '
            << long_text << R"(","severity":")" << (i % 2 ? "major" : "minor")
            << R"(","files":["src/f)" << i % 300
            << R"(.cc"],"kind":"review","recorded_at":"2026-11-)" << 10 + i % 20
            << R"(T00:00:00Z"})" << '\n';
      }
    }
  }
  std::string big(5000, 'S');
  std::ofstream(store() + "/memory/summary.md", std::ios::binary | std::ios::trunc)
      << "---\nupdated_at: 2026-11-01T00:00:00Z\n---\n"
      << big << "\n"
      << big << "\n";
  auto r = Lore({"distill", kRemote}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string index = Slurp(okf() / "index.md");
  EXPECT_LE(index.size(), 4096u);
  EXPECT_LE(std::count(index.begin(), index.end(), '\n'), 60);
  EXPECT_NE(index.find("[Gotchas](gotchas.md)"), std::string::npos) << index;
  EXPECT_NE(index.find("updated: 2026-11-29\n"), std::string::npos) << index;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
