#include "proposals/append_file.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace lore::proposals {
namespace {

// A writer killed inside its write(2) leaves the start of a line without its
// newline; the next append cuts it off instead of sealing it as a bad line.
TEST(AppendFile, ATornLastLineIsCutOffBeforeTheNextAppend) {
  testing::TempDir t;
  t.Write("q.jsonl", "{\"id\":\"a\"}\n{\"id\":\"b\",\"subj");
  ASSERT_TRUE(AppendAndSync(t / "q.jsonl", "{\"id\":\"c\"}\n"));
  EXPECT_EQ(t.Read("q.jsonl"), "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
  // A file that is one torn line.
  t.Write("one.jsonl", "{\"id\":");
  ASSERT_TRUE(AppendAndSync(t / "one.jsonl", "{\"id\":\"d\"}\n"));
  EXPECT_EQ(t.Read("one.jsonl"), "{\"id\":\"d\"}\n");
}

TEST(AppendFile, AWholeLastLineWithoutNewlineIsKeptApart) {
  testing::TempDir t;
  t.Write("q.jsonl", "{\"id\":\"a\"}\n{\"id\":\"b\"}");
  auto f = AppendFile::Open(t / "q.jsonl");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->needs_newline());
  EXPECT_EQ(f->initial_size(), 21);
  ASSERT_TRUE(f->Append("{\"id\":\"c\"}\n"));
  ASSERT_TRUE(f->Sync());
  EXPECT_EQ(t.Read("q.jsonl"), "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n");
  // Foreign JSON that is not an object is not ours to cut either.
  t.Write("n.jsonl", "[1, 2]");
  ASSERT_TRUE(AppendAndSync(t / "n.jsonl", "{}\n"));
  EXPECT_EQ(t.Read("n.jsonl"), "[1, 2]\n{}\n");
}

TEST(AppendFile, TheCutIsTheStartingSize) {
  testing::TempDir t;
  t.Write("q.jsonl", "{\"id\":\"a\"}\n{\"i");
  auto f = AppendFile::Open(t / "q.jsonl");
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->needs_newline());
  EXPECT_EQ(f->initial_size(), 11);
  EXPECT_EQ(t.Read("q.jsonl"), "{\"id\":\"a\"}\n");
}

}  // namespace
}  // namespace lore::proposals
