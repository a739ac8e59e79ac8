// The checkout's code symbols for stale citations: what an item cites, the
// HEAD the symbol file is tied to, the file's lookups and its bounds.
#include "recall/symbols.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "support/temp_dir.h"

namespace lore::recall {
namespace {

using Names = std::vector<std::string>;

TEST(CitedSymbols, NamesInCodeNotWords) {
  EXPECT_EQ(CitedSymbols("call `ParseQuery` then `index::Index::Find` and `parse_args()`"),
            (Names{"ParseQuery", "Find", "parse_args"}));
  EXPECT_EQ(CitedSymbols("`self.reset_state()` and `cfg->loadAll(x, y)`"),
            (Names{"reset_state", "loadAll"}));
  // Unquoted: a call with empty parentheses, a qualified name.
  EXPECT_EQ(CitedSymbols("run flush() after Store::Ensure runs"), (Names{"flush", "Ensure"}));
  // Words, file names, paths, commands and short names are not symbols.
  EXPECT_EQ(CitedSymbols("`main` `config.toml` `src/a.c` `make test` `Use` `id()` `README`"),
            Names{});
  EXPECT_EQ(CitedSymbols("a path src/parser() is not a call, nor is ()"), Names{});
  // At most `max`, each once.
  EXPECT_EQ(CitedSymbols("`a_bc` `a_bc` `b_cd` `c_de`", 2), (Names{"a_bc", "b_cd"}));
  // An unclosed backtick ends the scan without reading past the text.
  EXPECT_EQ(CitedSymbols("`open_file"), Names{});
}

// A checkout whose .git is written by hand: HEAD, loose and packed refs.
class SymbolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::Env env;
    env.lore_home = t_ / "stores";
    auto s = store::Store::Locate("git@github.com:acme/widgets.git", env);
    ASSERT_TRUE(s) << s.error().Format();
    store_ = std::move(*s);
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
    std::filesystem::create_directories(t_ / "co/.git/refs/heads");
    std::filesystem::create_directories(t_ / "co/src");
    Write(".git/HEAD", "ref: refs/heads/main\n");
    Write(".git/refs/heads/main", std::string(40, 'a') + "\n");
  }
  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(t_ / ("co/" + rel), std::ios::binary) << text;
  }
  CheckoutHead Head() {
    auto at = HeadOf(t_ / "co/src");
    EXPECT_TRUE(at);
    return at ? *at : CheckoutHead{};
  }
  testing::TempDir t_;
  std::optional<store::Store> store_;
};

TEST_F(SymbolsTest, HeadIsReadFromLooseRefsPackedRefsOrADetachedHead) {
  CheckoutHead at = Head();
  EXPECT_EQ(at.top, t_ / "co");
  EXPECT_EQ(at.head, std::string(40, 'a'));
  std::filesystem::remove(t_ / "co/.git/refs/heads/main");
  Write(".git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n" +
                                std::string(40, 'b') + " refs/heads/main\n");
  EXPECT_EQ(Head().head, std::string(40, 'b'));
  Write(".git/HEAD", std::string(40, 'c') + "\n");
  EXPECT_EQ(Head().head, std::string(40, 'c'));
  // No commit yet: nothing to tie a symbol file to.
  Write(".git/HEAD", "ref: refs/heads/new\n");
  EXPECT_FALSE(HeadOf(t_ / "co"));
  EXPECT_FALSE(HeadOf(t_ / "elsewhere"));
}

TEST_F(SymbolsTest, EveryIdentifierIsFoundAndNoOther) {
  std::string code;
  std::set<std::string> written;
  for (int i = 0; i < 3000; ++i) {
    std::string name = "fn_" + std::to_string(i * 7919 % 100003);
    written.insert(name);
    code += "int " + name + "(void);\n";
  }
  Write("src/a.c", code);
  Write("src/b.py", "def zzzz_last(): pass\nclass AAAA_first: pass\n");
  CheckoutHead at = Head();
  ASSERT_TRUE(SymbolsNeedBuild(*store_, at));
  auto stats = BuildSymbols(*store_, at, {"src/a.c", "src/b.py"});
  ASSERT_TRUE(stats) << stats.error().Format();
  EXPECT_EQ(stats->files, 2);
  EXPECT_FALSE(SymbolsNeedBuild(*store_, at));
  auto set = SymbolSet::Open(*store_, at);
  ASSERT_TRUE(set);
  for (const std::string& name : written) EXPECT_TRUE(set->Contains(name)) << name;
  for (const char* name : {"AAAA_first", "zzzz_last", "void", "class"})
    EXPECT_TRUE(set->Contains(name)) << name;
  for (const char* name :
       {"fn_", "fn_1x", "AAAA", "AAA_first", "zzzz_lastt", "zzzzz", "0000", "int", "fn_100004", ""})
    EXPECT_FALSE(set->Contains(name)) << name;
  // Made at another HEAD: not used, and rebuilt when a session starts.
  Write(".git/refs/heads/main", std::string(40, 'd') + "\n");
  EXPECT_FALSE(SymbolSet::Open(*store_, Head()));
  EXPECT_TRUE(SymbolsNeedBuild(*store_, Head()));
}

TEST_F(SymbolsTest, LinksFifosBinariesAndLargeFilesAreSkipped) {
  Write("src/ok.c",
        "void kept_name(void);\nconst char* t = \"ghp_1234567890abcdefghijABCDEFGHIJ123456\";\n");
  Write("src/big.c", std::string(2 << 20, 'x') + " big_name\n");
  Write("src/bin.o", std::string("\0\0ELF binary_name", 17));
  std::filesystem::create_symlink("/etc/passwd", t_ / "co/src/link.c");
  ASSERT_EQ(::mkfifo((t_ / "co/src/pipe.c").c_str(), 0600), 0);
  auto stats = BuildSymbols(*store_, Head(),
                            {"src/ok.c", "src/big.c", "src/bin.o", "src/link.c", "src/pipe.c",
                             "../outside.c", "/etc/passwd", "src/missing.c"});
  ASSERT_TRUE(stats) << stats.error().Format();
  EXPECT_EQ(stats->files, 1);
  EXPECT_EQ(stats->skipped, 7);
  auto set = SymbolSet::Open(*store_, Head());
  ASSERT_TRUE(set);
  EXPECT_TRUE(set->Contains("kept_name"));
  EXPECT_FALSE(set->Contains("big_name"));
  EXPECT_FALSE(set->Contains("binary_name"));
  EXPECT_FALSE(set->Contains("root"));
  // A secret spelled like a name never reaches the store.
  EXPECT_FALSE(set->Contains("ghp_1234567890abcdefghijABCDEFGHIJ123456"));
  EXPECT_EQ(t_.Read("stores/" + store_->key() + "/" + kSymbolsFile).find("ghp_"),
            std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(store_->Path(kSymbolsFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

}  // namespace
}  // namespace lore::recall
