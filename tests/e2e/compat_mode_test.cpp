// What differs between lore and lore as reviewer-memory (issue 16): the
// verbs offered, the default store root, ensure's JSON spelling, and how the
// mode is chosen.
#include <sys/stat.h>
#include <unistd.h>

#include "compat_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;

using CompatModeTest = ContractTest;

TEST_P(CompatModeTest, EnsurePrintsTheModesJsonSpelling) {
  auto r = Call("ensure");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string raw_path = raw(), index_path = index();
  if (reviewer_memory()) {
    // Python's json.dumps defaults: ", " and ": ", ASCII only.
    EXPECT_EQ(r.out, "{\"key\": \"" + std::string(kKey) + "\", \"root\": \"" + store() +
                         "\", \"raw_path\": \"" + raw_path + "\", \"index_path\": \"" + index_path +
                         "\", \"has_content\": false}\n");
  } else {
    EXPECT_EQ(r.out, "{\"key\":\"" + std::string(kKey) + "\",\"root\":\"" + store() +
                         "\",\"raw_path\":\"" + raw_path + "\",\"index_path\":\"" + index_path +
                         "\",\"has_content\":false}\n");
  }
  // A non-ASCII home: escaped as json.dumps does, kept as UTF-8 by lore.
  RunOptions o = Opts();
  o.env["HOME"] = t_ / "hé";
  auto u = Call({"ensure", kRemote}, o);
  ASSERT_EQ(u.exit_code, 0) << u.err;
  EXPECT_NE(u.out.find(reviewer_memory() ? "/h\\u00e9/" : "/hé/"), std::string::npos) << u.out;
}

TEST_P(CompatModeTest, DefaultRootAndLoreHome) {
  RunOptions o = Opts();
  o.env["XDG_CONFIG_HOME"] = t_ / "xdg";
  auto r = Call({"pointer", kRemote}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The reference ignores XDG_CONFIG_HOME; lore honours it.
  std::string expected =
      reviewer_memory() ? index() : t_ / "xdg/lore/" + std::string(kKey) + "/okf/index.md";
  EXPECT_EQ(r.out, expected + "\n");
  o.env["LORE_HOME"] = t_ / "stores";
  EXPECT_EQ(Call({"pointer", kRemote}, o).out,
            t_ / "stores/" + std::string(kKey) + "/okf/index.md\n");
}

TEST_P(CompatModeTest, OnlyTheFourVerbsAreOffered) {
  auto help = Call({"--help"}, Opts());
  EXPECT_EQ(help.exit_code, 0);
  for (const char* verb : {"ensure", "append-review", "append-slicing", "pointer"}) {
    EXPECT_NE(help.out.find(verb), std::string::npos) << verb << help.out;
  }
  for (const char* verb : {"check", "propose", "search", "mcp"}) {
    // lore offers them all; reviewer-memory none of them.
    EXPECT_EQ(help.out.find(std::string("  ") + verb + " ") == std::string::npos, reviewer_memory())
        << verb << help.out;
    if (!reviewer_memory()) continue;
    auto r = Call({verb, kRemote}, Opts());
    EXPECT_EQ(r.exit_code, 2) << verb;
    EXPECT_EQ(r.err, "reviewer-memory: unknown verb '" + std::string(verb) +
                         "'; choose from ensure, append-review, append-slicing, pointer\n");
  }
  if (!reviewer_memory()) return;
  auto missing = Call({"ensure"}, Opts());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err.rfind("reviewer-memory: ", 0), 0u) << missing.err;
  auto none = Call({}, Opts());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_FALSE(stdfs::exists(t_ / "home"));  // usage errors write nothing
}

INSTANTIATE_TEST_SUITE_P(Modes, CompatModeTest,
                         ::testing::Values(Mode::kLore, Mode::kByName, Mode::kByEnv), ModeName);

TEST(CompatSelection, AHardLinkAndAnUnknownCompatValue) {
  TempDir t;
  std::string link = t / "reviewer-memory";
  if (::link(LoreBinary().c_str(), link.c_str()) != 0) GTEST_SKIP() << "no hard link here";
  RunOptions o;
  o.env["HOME"] = t / "home";
  o.env["LORE_HOME"] = std::nullopt;
  o.env["LORE_COMPAT"] = std::nullopt;
  auto r = testing::Run({link, "pointer", "https://example.com/a/b"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, t / "home/.config/reviewer-memory/example.com_a_b/okf/index.md\n");
  o.env["LORE_COMPAT"] = "something-else";
  auto bad = Lore({"pointer", "https://example.com/a/b"}, o);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "lore: unknown LORE_COMPAT value 'something-else'; unset it, or set it to "
            "'reviewer-memory'\n");
  o.env["LORE_COMPAT"] = "";
  EXPECT_EQ(Lore({"pointer", "https://example.com/a/b"}, o).out,
            t / "home/.config/lore/example.com_a_b/okf/index.md\n");
}

// docs/capture.md's shim in place of scripts/memory.py, run as callers run the script.
TEST(CompatSelection, TheDocumentedShimRunsLoreAsReviewerMemory) {
  if (testing::Run({"/usr/bin/python3", "-c", "pass"}).exit_code != 0) GTEST_SKIP() << "no python3";
  TempDir t;
  stdfs::create_directories(t / "bin");
  stdfs::create_symlink(LoreBinary(), t / "bin/lore");
  t.Write("memory.py",
          "#!/usr/bin/env python3\n"
          "import os, sys; os.execvp(\"lore\", [\"reviewer-memory\", *sys.argv[1:]])\n");
  ::chmod((t / "memory.py").c_str(), 0755);
  RunOptions o;
  o.env["HOME"] = t / "home";
  o.env["PATH"] = t / "bin:/usr/bin:/bin";
  o.env["LORE_HOME"] = std::nullopt;
  o.env["LORE_COMPAT"] = std::nullopt;
  for (std::vector<std::string> argv :
       {std::vector<std::string>{"/usr/bin/python3", t / "memory.py"},
        std::vector<std::string>{t / "memory.py"}}) {
    argv.insert(argv.end(), {"ensure", "https://example.com/a/b"});
    auto r = testing::Run(argv, o);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("{\"key\": \"example.com_a_b\", \"root\": \"" + t.path() +
                              "/home/.config/reviewer-memory/example.com_a_b\", ",
                          0),
              0u)
        << r.out;
  }
  o.input = "[1]";
  auto bad = testing::Run({t / "memory.py", "append-review", "https://example.com/a/b"}, o);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("reviewer-memory: stdin must contain one JSON object", 0), 0u) << bad.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
