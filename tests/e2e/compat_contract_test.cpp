// Seed 003's contract for callers, as black-box tests run in every mode of
// lore (compat_fixture.h): skeleton and key, the round trip of both kinds,
// every refusal named with its file, line and repair, pointer with a relative
// HOME, symlinks refused with their targets untouched, nothing written outside
// raw.jsonl, okf/ and okf/index.md.
#include <sys/stat.h>
#include <sys/xattr.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "compat_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

TEST_P(ContractTest, SkeletonAndKey) {
  auto r = Call("ensure");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  std::vector<std::string> keys;
  for (auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"key", "root", "raw_path", "index_path", "has_content"}));
  EXPECT_EQ(j["key"], kKey);
  EXPECT_EQ(j["root"], store());
  EXPECT_EQ(j["raw_path"], raw());
  EXPECT_EQ(j["index_path"], index());
  EXPECT_EQ(j["has_content"], false);
  EXPECT_EQ(Read(raw()), "");
  std::string title = reviewer_memory() ? "Reviewer memory" : std::string(kKey) + " memory";
  std::string page = Read(index());
  EXPECT_EQ(page.rfind("---\ntitle: " + title + "\nupdated: ", 0), 0u) << page;
  EXPECT_EQ(page.substr(page.size() - 14), "\ntags: []\n---\n") << page;
  // ssh and https forms of one remote share the store.
  EXPECT_EQ(Call({"ensure", "https://github.com/acme/widgets"}, Opts()).out, r.out);
  Write(index(), "---\ntitle: x\nupdated: 2026-01-01\ntags: []\n---\n# Digest\n");
  EXPECT_EQ(Json::parse(Call("ensure").out)["has_content"], true);
}

TEST_P(ContractTest, RoundTripOfBothKinds) {
  ASSERT_EQ(Call("append-review", R"({"ticket":"T-1","finding":"naïve — évité","kind":"x","n":1})")
                .exit_code,
            0);
  ASSERT_EQ(Call("append-slicing",
                 "{\"ticket_id\": \"T-2\", \"verbs\": [\"add\"], \"depth\": 2, "
                 "\"verdict\": \"split\", \"reason\": \"两个\"}\n")
                .exit_code,
            0);
  std::string lines = Read(raw());
  ASSERT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2) << lines;
  std::string first = lines.substr(0, lines.find('\n'));
  std::string second = lines.substr(first.size() + 1, lines.size() - first.size() - 2);
  EXPECT_EQ(
      first.rfind(
          R"({"ticket":"T-1","finding":"naïve — évité","kind":"review","n":1,"recorded_at":")", 0),
      0u)
      << first;
  EXPECT_EQ(
      second.rfind(
          R"({"ticket_id":"T-2","verbs":["add"],"depth":2,"verdict":"split","reason":"两个","kind":"slicing","recorded_at":")",
          0),
      0u)
      << second;
  std::string at = Json::parse(second)["recorded_at"].get<std::string>();
  EXPECT_EQ(at.size(), 20u);
  EXPECT_EQ(at.back(), 'Z');
}

TEST_P(ContractTest, CorruptRawLineIsNamedWithItsNumber) {
  ASSERT_EQ(Call("append-review", R"({"a":1})").exit_code, 0);
  { std::ofstream(raw(), std::ios::app) << "{\"b\":2}\n{broken\n"; }
  std::string before = Read(raw());
  for (const char* verb : {"append-review", "append-slicing", "ensure", "pointer"}) {
    auto r = Call(verb, R"({"c":3})");
    ExpectRefusal(r, raw() + ":3");
    ExpectWords(r, "malformed JSON line in " + raw() + ":3: ");
  }
  EXPECT_EQ(Read(raw()), before);
  Write(raw(), "{\"a\":1}\n[1,2]\n");
  auto r = Call("ensure");
  ExpectRefusal(r, raw() + ":2");
  ExpectWords(r, "malformed JSON line in " + raw() + ":2: expected an object");
}

TEST_P(ContractTest, CorruptIndexIsNamed) {
  ASSERT_EQ(Call("ensure").exit_code, 0);
  for (std::string page : {"title: x\n---\n", "---\ntitle: x\n"}) {
    Write(index(), page);
    auto r = Call("append-review", R"({"a":1})");
    ExpectRefusal(r, index());
    ExpectWords(r, "unparseable OKF index frontmatter in " + index() +
                       ":1; begin and close it with --- lines");
  }
  EXPECT_EQ(Read(raw()), "");
}

TEST_P(ContractTest, InvalidUtf8InRawIndexOrStdinIsReportedWithThePrefix) {
  ASSERT_EQ(Call("ensure").exit_code, 0);
  Write(raw(), "{\"a\":\"\xc3\x28\"}\n");
  auto r = Call("pointer");
  ExpectRefusal(r, raw() + ":1");
  ExpectWords(r, "invalid UTF-8 in " + raw() + ":1");

  Write(raw(), "");
  Write(index(), "---\ntitle: \xff\n---\n");
  auto i = Call("ensure");
  ExpectRefusal(i, index() + ":2");
  ExpectWords(i, "invalid UTF-8 in " + index() + ":2");

  Write(index(), "---\ntitle: x\n---\n");
  auto s = Call("append-review", "{\"a\":\"\xff\"}");
  ExpectRefusal(s, reviewer_memory() ? "stdin" : "<stdin>");
  ExpectWords(s, "stdin must contain UTF-8 JSON: ");
  for (std::string bad : {"[1]", "{\"a\":1}{\"b\":2}", "", "{\"a\": }"}) {
    auto b = Call("append-review", bad);
    ExpectRefusal(b, reviewer_memory() ? "stdin" : "<stdin>");
    ExpectWords(b, "stdin must contain one JSON object");
  }
  EXPECT_EQ(Read(raw()), "");
}

TEST_P(ContractTest, MissingFilesAndARootThatIsAFileAreRefused) {
  ASSERT_EQ(Call("ensure").exit_code, 0);
  stdfs::remove(raw());
  auto r = Call("append-review", R"({"a":1})");
  ExpectRefusal(r, raw());
  ExpectWords(r, "missing raw record file: " + raw() + "; ");
  EXPECT_FALSE(stdfs::exists(raw()));
  Write(raw(), "");
  stdfs::remove(index());
  auto i = Call("ensure");
  ExpectRefusal(i, index());
  ExpectWords(i, "missing OKF index: " + index() + "; ");
  stdfs::remove_all(store());
  Write(store(), "a file");
  auto f = Call("pointer");
  ExpectRefusal(f, store());
  ExpectWords(f, "store root is not a directory: " + store() + "; remove or repair it, then retry");
}

TEST_P(ContractTest, PointerIsAbsoluteWithARelativeHome) {
  RunOptions o = Opts();
  o.env["HOME"] = "home";  // relative: t_/home from the working directory
  o.cwd = t_.path();
  auto r = Call({"pointer", kRemote}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, index() + "\n");
  auto e = Call({"ensure", kRemote}, o);
  EXPECT_EQ(Json::parse(e.out)["root"], store());
}

// Every file and its bytes under `dir` (following nothing).
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  if (!stdfs::is_directory(dir)) {
    std::ifstream in(dir, std::ios::binary);
    out[""] = std::string(std::istreambuf_iterator<char>(in), {});
    return out;
  }
  for (auto& e : stdfs::recursive_directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    out[e.path().string()] =
        e.is_directory() ? "<dir>" : std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

TEST_P(ContractTest, EachSymlinkedComponentIsRefusedAndItsTargetUntouched) {
  const std::map<std::string, std::string> components = {{"grandparent", t_ / "home/.config"},
                                                         {"parent", root()},
                                                         {"store", store()},
                                                         {"raw", raw()},
                                                         {"okf", store() + "/okf"},
                                                         {"index", index()}};
  for (const auto& [name, path] : components) {
    SCOPED_TRACE(name);
    stdfs::remove_all(t_ / "home");
    stdfs::remove_all(t_ / "elsewhere");
    ASSERT_EQ(Call("append-review", R"({"a":1})").exit_code, 0);
    std::string target = t_ / "elsewhere";
    stdfs::rename(path, target);
    stdfs::create_symlink(target, path);
    auto before = Snapshot(target);
    for (const char* verb : {"ensure", "append-review", "append-slicing", "pointer"}) {
      auto r = Call(verb, R"({"b":2})");
      ExpectRefusal(r, path);
      ExpectWords(r, "symlinked store path is not allowed: " + path +
                         "; replace it with a regular path, then retry");
    }
    EXPECT_EQ(Snapshot(target), before);
  }
}

TEST_P(ContractTest, UnreadableFileIsPermissionDenied) {
  ASSERT_EQ(Call("append-review", R"({"a":1})").exit_code, 0);
  RunOptions o = Opts(R"({"b":2})");
  if (::geteuid() == 0) {
    o.as_uid = 65534;
    for (auto& e : stdfs::recursive_directory_iterator(t_.path()))
      ::lchown(e.path().c_str(), 65534, 65534);
    ::chown(t_.path().c_str(), 65534, 65534);
    RunOptions probe = Opts();
    probe.as_uid = 65534;
    if (Call({"--version"}, probe).exit_code == 127) GTEST_SKIP() << "binary unreachable as nobody";
  }
  ::chmod(raw().c_str(), 0);
  auto r = Call({"append-review", kRemote}, o);
  ExpectRefusal(r, raw());
  EXPECT_NE(r.err.find(reviewer_memory()
                           ? ": permission denied; rerun this verb outside the sandbox or with "
                             "escalated permissions"
                           : "rerun outside the sandbox or with escalated permissions"),
            std::string::npos)
      << r.err;
  ::chmod(raw().c_str(), 0600);
  std::string lines = Read(raw());
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 1) << lines;
}

// Issue 16: the capture verbs leave no file but raw.jsonl, okf/ and okf/index.md,
// in the store or anywhere else (no side file, no cache while the store's file
// system keeps attributes).
TEST_P(ContractTest, NothingIsWrittenOutsideTheAllowedPaths) {
  std::string rel = stdfs::relative(store(), t_.path()).string();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(Call("append-review", R"({"a":1})").exit_code, 0);
    ASSERT_EQ(Call("append-slicing", R"({"b":1})").exit_code, 0);
    ASSERT_EQ(Call("ensure").exit_code, 0);
    ASSERT_EQ(Call("pointer").exit_code, 0);
    { std::ofstream(raw(), std::ios::app) << "{\"foreign\":1}\n"; }  // forces a full check
  }
  if (::getxattr(raw().c_str(), "user.lore.check", nullptr, 0) < 0 && errno == ENOTSUP) {
    GTEST_SKIP() << "no extended attributes here: the cache under ~/.cache/lore is used";
  }
  EXPECT_EQ(Files(), (std::vector<std::string>{rel + "/okf/index.md", rel + "/raw.jsonl"}));
  EXPECT_GT(::getxattr(raw().c_str(), "user.lore.check", nullptr, 0), 0);
}

// A store left by an earlier lore holds .lore-raw.check: it goes on the first full check.
TEST_P(ContractTest, OldSideFileIsRemoved) {
  Write(raw(), "{\"a\":1}\n");
  Write(index(), "---\ntitle: Reviewer memory\nupdated: 2026-01-01\ntags: []\n---\n");
  Write(store() + "/.lore-raw.check", "lore-log-check-v1 1 2 8 4 5 1 1 9\n");
  ASSERT_EQ(Call("append-review", R"({"b":1})").exit_code, 0);
  EXPECT_FALSE(stdfs::exists(store() + "/.lore-raw.check"));
  std::string lines = Read(raw());
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2) << lines;
}

INSTANTIATE_TEST_SUITE_P(Modes, ContractTest,
                         ::testing::Values(Mode::kLore, Mode::kByName, Mode::kByEnv), ModeName);

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
