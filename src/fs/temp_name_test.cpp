#include "fs/temp_name.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lore/fs/fd.h"

namespace lore::fs {
namespace {

TEST(TempPath, CarriesTheDirectoryTheNameAndThePid) {
  std::string p = TempPath("/a/b/raw.jsonl");
  EXPECT_EQ(Dirname(p), "/a/b");
  std::string name = Basename(p);
  std::string head = ".raw.jsonl.tmp." + std::to_string(::getpid()) + ".";
  ASSERT_EQ(name.rfind(head, 0), 0u) << name;
  EXPECT_EQ(name.size(), head.size() + 8);
  EXPECT_NE(TempPath("/a/b/raw.jsonl"), p);  // random part differs
}

TEST(TempPath, HiddenNamesGetNoSecondDot) {
  std::string name = Basename(TempPath("/s/.lore-raw.check"));
  EXPECT_EQ(name.rfind(".lore-raw.check.tmp.", 0), 0u) << name;
  EXPECT_EQ(Basename(TempPath("/root/key", TempKind::kNew)).rfind(".key.new.", 0), 0u);
}

TEST(ParseTempName, RoundTripsEveryKind) {
  for (TempKind k : {TempKind::kFile, TempKind::kNew, TempKind::kOld, TempKind::kReplaced}) {
    auto t = ParseTempName(Basename(TempPath("/d/example.com_a_b", k)));
    ASSERT_TRUE(t);
    EXPECT_EQ(t->base, "example.com_a_b");
    EXPECT_EQ(t->kind, k);
    EXPECT_EQ(t->pid, ::getpid());
  }
}

TEST(ParseTempName, ReadsTheOlderForms) {
  auto a = ParseTempName(".lore-raw.check.tmp.4242");  // checked_log's old name
  ASSERT_TRUE(a);
  EXPECT_EQ(a->base, "lore-raw.check");
  EXPECT_EQ(a->pid, 4242);
  auto b = ParseTempName("proposals-summary-W1.json.tmp.77.3735928559");  // summary's old name
  ASSERT_TRUE(b);
  EXPECT_EQ(b->base, "proposals-summary-W1.json");
  EXPECT_EQ(b->pid, 77);
  auto c = ParseTempName(".import.new.12.abcdef");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->base, "import");
  EXPECT_EQ(c->kind, TempKind::kNew);
}

TEST(ParseTempName, RefusesOtherNames) {
  for (const char* name :
       {"raw.jsonl", "notes.tmp.md", ".tmp.12.ab", "a.tmp.x.ab", "a.tmp.0.ab", "a.bak.12.ab",
        "decision.tmp.12.md", ".okf.new", "a.tmp.99999999999.ab", "a.tmp.12.XYZ"}) {
    EXPECT_FALSE(ParseTempName(name)) << name;
  }
}

}  // namespace
}  // namespace lore::fs
