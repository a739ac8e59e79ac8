// Black-box tests of the capture verbs (docs/capture.md): the real binary
// on real files in a temporary folder.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kRemote = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

class CaptureTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    return IsolatedOptions(t_.path(), "home/.lore", std::move(input));
  }
  std::string store_root() const { return t_ / "home/.lore"; }
  std::string store() const { return store_root() + "/" + kKey; }
  std::string raw() const { return store() + "/raw.jsonl"; }
  std::string ReadRaw() const { return t_.Read("home/.lore/" + std::string(kKey) + "/raw.jsonl"); }

  // Asserts the failure shape of seed 003: exit 1, one line on stderr naming `path`.
  void ExpectRefusal(const RunResult& r, const std::string& path) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("lore: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; "), std::string::npos) << "no repair in: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }

  TempDir t_;
};

TEST_F(CaptureTest, EnsureCreatesSkeletonAndReportsKey) {
  auto r = Lore({"ensure", kRemote}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  std::vector<std::string> keys;
  for (auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"key", "root", "raw_path", "index_path", "has_content"}));
  EXPECT_EQ(j["key"], kKey);
  EXPECT_EQ(j["root"], store());
  EXPECT_EQ(j["raw_path"], raw());
  EXPECT_EQ(j["index_path"], store() + "/okf/index.md");
  EXPECT_EQ(j["has_content"], false);
  EXPECT_EQ(ReadRaw(), "");
  std::string index = t_.Read("home/.lore/" + std::string(kKey) + "/okf/index.md");
  EXPECT_EQ(index.rfind("---\ntitle: github.com_acme_widgets memory\nupdated: ", 0), 0u) << index;
  EXPECT_NE(index.find("\ntags: []\n---\n"), std::string::npos) << index;
  struct stat st;
  ASSERT_EQ(::stat(store().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(raw().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // The https form of the same remote is the same store.
  auto again = Lore({"ensure", "https://github.com/acme/widgets"}, Opts());
  EXPECT_EQ(again.out, r.out);
}

TEST_F(CaptureTest, HasContentWhenIndexHasBody) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  t_.Write(
      "home/.lore/" + std::string(kKey) + "/okf/index.md",
      "---\ntitle: x\nupdated: 2026-01-01\ntags: []\n---\n# Digest\n- see [gotchas](gotchas.md)\n");
  auto r = Lore({"ensure", kRemote}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["has_content"], true);
}

TEST_F(CaptureTest, KeyFromCheckoutOriginAndFromTopLevel) {
  t_.Write("src/widgets/.git/config",
           "[remote \"origin\"]\n\turl = https://bob@github.com/acme/widgets.git\n");
  stdfs::create_directories(t_ / "src/widgets/lib");
  auto r = Lore({"ensure", t_ / "src/widgets/lib"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["key"], kKey);

  t_.Write("src/local/.git/HEAD", "ref: refs/heads/main\n");
  auto l = Lore({"ensure", t_ / "src/local"}, Opts());
  ASSERT_EQ(l.exit_code, 0) << l.err;
  std::string key = Json::parse(l.out)["key"].get<std::string>();
  EXPECT_NE(key.find("src_local"), std::string::npos) << key;
  EXPECT_EQ(key.find('/'), std::string::npos);
}

TEST_F(CaptureTest, ReviewThenSlicingRoundTrip) {
  auto a = Lore(
      {"append-review", kRemote},
      Opts(R"({"ticket":"T-1","finding":"naïve cache — évité","kind":"ignored","z":1,"a":[1,2]})"));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto b = Lore(
      {"append-slicing", "https://github.com/acme/widgets"},
      Opts("{\n  \"ticket_id\": \"T-2\",\n  \"verbs\": [\"add\"],\n  \"traits\": {\"ui\": true},\n"
           "  \"depth\": 2,\n  \"verdict\": \"split\",\n  \"reason\": \"两个\"\n}\n"));
  ASSERT_EQ(b.exit_code, 0) << b.err;
  std::string raw = ReadRaw();
  ASSERT_EQ(std::count(raw.begin(), raw.end(), '\n'), 2) << raw;
  std::string first = raw.substr(0, raw.find('\n'));
  std::string second = raw.substr(raw.find('\n') + 1);
  second.pop_back();
  // Compact, field order kept, kind set in place, recorded_at appended, UTF-8 kept.
  EXPECT_EQ(
      first.rfind(
          R"({"ticket":"T-1","finding":"naïve cache — évité","kind":"review","z":1,"a":[1,2],"recorded_at":")",
          0),
      0u)
      << first;
  EXPECT_EQ(
      second.rfind(
          R"({"ticket_id":"T-2","verbs":["add"],"traits":{"ui":true},"depth":2,"verdict":"split","reason":"两个","kind":"slicing","recorded_at":")",
          0),
      0u)
      << second;
  std::string at = Json::parse(second)["recorded_at"].get<std::string>();
  EXPECT_EQ(at.size(), 20u);
  EXPECT_EQ(at.back(), 'Z');
  EXPECT_EQ(at[10], 'T');
}

TEST_F(CaptureTest, PointerIsAbsoluteWithRelativeHome) {
  RunOptions o = Opts();
  o.env["LORE_HOME"] = std::nullopt;
  o.env["HOME"] = "rel-home";
  o.cwd = t_.path();
  auto r = Lore({"pointer", kRemote}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, t_ / ("rel-home/.config/lore/" + std::string(kKey) + "/okf/index.md\n"));
}

TEST_F(CaptureTest, XdgConfigHomeIsUsedWhenLoreHomeUnset) {
  RunOptions o = Opts();
  o.env["LORE_HOME"] = std::nullopt;
  o.env["XDG_CONFIG_HOME"] = t_ / "xdg";
  auto r = Lore({"pointer", kRemote}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, t_ / ("xdg/lore/" + std::string(kKey) + "/okf/index.md\n"));
}

TEST_F(CaptureTest, NothingIsWrittenOutsideTheStore) {
  stdfs::create_directories(t_ / "home");
  ASSERT_EQ(Lore({"append-review", kRemote}, Opts(R"({"a":1})")).exit_code, 0);
  ASSERT_EQ(Lore({"pointer", kRemote}, Opts()).exit_code, 0);
  for (auto& e : stdfs::recursive_directory_iterator(t_.path())) {
    std::string p = e.path().string();
    if (e.is_directory()) continue;
    EXPECT_EQ(p.rfind(store() + "/", 0), 0u) << "written outside the store: " << p;
  }
}

TEST_F(CaptureTest, CorruptRawLineIsNamedWithItsNumber) {
  ASSERT_EQ(Lore({"append-review", kRemote}, Opts(R"({"a":1})")).exit_code, 0);
  {
    std::ofstream out(raw(), std::ios::app);
    out << "{\"b\":2}\n{broken\n";
  }
  std::string before = ReadRaw();
  for (const char* verb : {"append-review", "append-slicing", "ensure", "pointer"}) {
    auto r = Lore({verb, kRemote}, Opts(R"({"c":3})"));
    ExpectRefusal(r, raw() + ":3");
  }
  EXPECT_EQ(ReadRaw(), before);
}

TEST_F(CaptureTest, NonObjectRawLineIsRefused) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  t_.Write("home/.lore/" + std::string(kKey) + "/raw.jsonl", "{\"a\":1}\n[1,2]\n");
  auto r = Lore({"append-review", kRemote}, Opts(R"({"c":3})"));
  ExpectRefusal(r, raw() + ":2");
  EXPECT_NE(r.err.find("not an object"), std::string::npos) << r.err;
}

TEST_F(CaptureTest, InvalidUtf8InRawIsRefused) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  t_.Write("home/.lore/" + std::string(kKey) + "/raw.jsonl", "{\"a\":\"\xc3\x28\"}\n");
  ExpectRefusal(Lore({"pointer", kRemote}, Opts()), raw() + ":1");
}

TEST_F(CaptureTest, InvalidStdinIsRefusedAndNothingWritten) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  for (std::string bad :
       {std::string("{\"a\":\"\xff\"}"), std::string("[1]"), std::string("{\"a\":1}{\"b\":2}"),
        std::string(""), std::string("{\n\"a\": 1,\n\"b\": }")}) {
    auto r = Lore({"append-review", kRemote}, Opts(bad));
    ExpectRefusal(r, "<stdin>");
  }
  EXPECT_EQ(ReadRaw(), "");
}

TEST_F(CaptureTest, BadIndexFrontmatterIsRefused) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  std::string index = store() + "/okf/index.md";
  t_.Write("home/.lore/" + std::string(kKey) + "/okf/index.md", "title: x\n---\n");
  ExpectRefusal(Lore({"append-review", kRemote}, Opts(R"({"a":1})")), index + ":1");
  t_.Write("home/.lore/" + std::string(kKey) + "/okf/index.md", "---\ntitle: x\n");
  ExpectRefusal(Lore({"ensure", kRemote}, Opts()), index + ":1");
  t_.Write("home/.lore/" + std::string(kKey) + "/okf/index.md", "---\ntitle: \xff\n---\n");
  ExpectRefusal(Lore({"pointer", kRemote}, Opts()), index + ":2");
  EXPECT_EQ(ReadRaw(), "");
}

TEST_F(CaptureTest, MissingRawOrIndexInExistingStoreIsRefused) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  stdfs::remove(raw());
  ExpectRefusal(Lore({"append-review", kRemote}, Opts(R"({"a":1})")), raw());
  EXPECT_FALSE(stdfs::exists(raw()));
  t_.Write("home/.lore/" + std::string(kKey) + "/raw.jsonl", "");
  stdfs::remove(store() + "/okf/index.md");
  ExpectRefusal(Lore({"ensure", kRemote}, Opts()), store() + "/okf/index.md");
}

TEST_F(CaptureTest, StoreRootThatIsAFileIsRefused) {
  stdfs::create_directories(store_root());
  t_.Write("home/.lore/" + std::string(kKey), "not a dir");
  ExpectRefusal(Lore({"ensure", kRemote}, Opts()), store());
}

class SymlinkTest : public CaptureTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(SymlinkTest, SymlinkInStorePathIsRefused) {
  ASSERT_EQ(Lore({"append-review", kRemote}, Opts(R"({"a":1})")).exit_code, 0);
  const std::string which = GetParam();
  std::string target;
  if (which == "root") target = store();
  if (which == "parent") target = store_root();
  if (which == "grandparent") target = t_ / "home";
  if (which == "raw") target = raw();
  if (which == "okf") target = store() + "/okf";
  if (which == "index") target = store() + "/okf/index.md";
  std::string moved = target + ".real";
  stdfs::rename(target, moved);
  stdfs::create_symlink(moved, target);
  std::string before = t_.Read("home/.lore/" + std::string(kKey) + ".real/raw.jsonl");
  for (const char* verb : {"append-review", "ensure", "pointer"}) {
    auto r = Lore({verb, kRemote}, Opts(R"({"b":2})"));
    ExpectRefusal(r, target);
    EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
  }
  // Nothing was appended through the link.
  std::string raw_real = which == "root" ? moved + "/raw.jsonl" : which == "raw" ? moved : raw();
  if (which == "parent" || which == "grandparent")
    raw_real = moved + (which == "parent" ? "/" : "/.lore/") + kKey + "/raw.jsonl";
  std::ifstream in(raw_real);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 1) << content;
}

INSTANTIATE_TEST_SUITE_P(Paths, SymlinkTest,
                         ::testing::Values("root", "parent", "grandparent", "raw", "okf", "index"));

TEST_F(CaptureTest, UnreadableFileIsPermissionDenied) {
  ASSERT_EQ(Lore({"append-review", kRemote}, Opts(R"({"a":1})")).exit_code, 0);
  RunOptions o = Opts(R"({"b":2})");
  if (::geteuid() == 0) {
    // root reads anything: run as an unprivileged user that owns the tree.
    o.as_uid = 65534;
    for (auto& e : stdfs::recursive_directory_iterator(t_.path())) {
      ::lchown(e.path().c_str(), 65534, 65534);
    }
    ::chown(t_.path().c_str(), 65534, 65534);
    RunOptions probe = o;
    probe.input.clear();
    if (Lore({"--version"}, probe).exit_code == 127) {
      GTEST_SKIP() << "the lore binary is not reachable by an unprivileged user here";
    }
  }
  ::chmod(raw().c_str(), 0);
  auto r = Lore({"append-review", kRemote}, o);
  ExpectRefusal(r, raw());
  EXPECT_NE(r.err.find("rerun outside the sandbox or with escalated permissions"),
            std::string::npos)
      << r.err;
  ::chmod(raw().c_str(), 0600);
  std::string content = ReadRaw();
  EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 1) << content;
}

TEST_F(CaptureTest, CheckListsEveryProblem) {
  ASSERT_EQ(Lore({"ensure", kRemote}, Opts()).exit_code, 0);
  t_.Write("home/.lore/" + std::string(kKey) + "/raw.jsonl", "{\"a\":1}\nbad\n{\"b\":2}\n[3]\n");
  t_.Write("home/.lore/" + std::string(kKey) + "/okf/index.md", "no frontmatter\n");
  auto r = Lore({"check", kRemote}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(raw() + ":2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(raw() + ":4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("okf/index.md:1"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 3) << r.err;
}

TEST_F(CaptureTest, CliConventions) {
  auto v = Lore({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("lore ", 0), 0u);
  // The version and the commit it was built from (docs/install.md).
  EXPECT_TRUE(std::regex_search(
      v.out, std::regex(R"(^lore [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}|unknown)\)\n$)")))
      << v.out;
  auto h = Lore({"--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("append-review"), std::string::npos);
  auto hv = Lore({"help", "append-slicing"});
  EXPECT_EQ(hv.exit_code, 0);
  EXPECT_NE(hv.out.find("lore append-slicing"), std::string::npos) << hv.out;
  auto typo = Lore({"apend-review", kRemote});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("did you mean 'append-review'"), std::string::npos) << typo.err;
  EXPECT_EQ(Lore({"ensure"}).exit_code, 2);            // missing <repo>
  EXPECT_EQ(Lore({"ensure", "a", "b"}).exit_code, 2);  // extra argument
  EXPECT_EQ(Lore({}).exit_code, 2);
}

// lore builds only the named verb's group of options; every verb that help
// lists must still be found that way, with its own help.
TEST_F(CaptureTest, EveryListedVerbRunsOnItsOwn) {
  auto h = Lore({"--help"});
  ASSERT_EQ(h.exit_code, 0);
  std::istringstream in(h.out.substr(h.out.find("Subcommands:")));
  std::string line;
  std::getline(in, line);
  int verbs = 0;
  while (std::getline(in, line) && line.rfind("  ", 0) == 0) {
    std::string verb = line.substr(2, line.find(' ', 2) - 2);
    if (verb == "help") continue;
    ++verbs;
    auto r = Lore({verb, "--help"});
    EXPECT_EQ(r.exit_code, 0) << verb << ": " << r.err;
    EXPECT_NE(r.out.find("lore " + verb), std::string::npos) << verb << ": " << r.out;
  }
  EXPECT_GE(verbs, 20);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

// Eight lore processes appending at once: every record lands whole.
TEST(CaptureConcurrency, EightLoreProcessesAppendAtOnce) {
  TempDir t;
  constexpr int kProcs = 8, kEach = 60;
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcs; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      RunOptions o;
      o.env["LORE_HOME"] = t / "lore";
      for (int i = 0; i < kEach; ++i) {
        o.input = "{\"p\":" + std::to_string(p) + ",\"i\":" + std::to_string(i) + "}";
        if (Lore({"append-review", "https://example.com/x/y"}, o).exit_code != 0) _exit(1);
      }
      _exit(0);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::string raw = t.Read("lore/example.com_x_y/raw.jsonl");
  EXPECT_EQ(std::count(raw.begin(), raw.end(), '\n'), kProcs * kEach);
  RunOptions o;
  o.env["LORE_HOME"] = t / "lore";
  auto check = Lore({"check", "https://example.com/x/y"}, o);
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
