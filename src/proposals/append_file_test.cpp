#include "proposals/append_file.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace lore::proposals {
namespace {

// A writer killed inside its write(2) leaves the start of a line without its
// newline; the next append moves it into the store's quarantine/ (never
// deleting a byte) instead of sealing it as a bad line.
TEST(AppendFile, ATornLastLineIsQuarantinedBeforeTheNextAppend) {
  testing::TempDir t;
  t.Write("q.jsonl", "{\"id\":\"a\"}\n{\"id\":\"b\",\"subj");
  ASSERT_TRUE(AppendAndSync(t / "q.jsonl", "{\"id\":\"c\"}\n"));
  EXPECT_EQ(t.Read("q.jsonl"), "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
  EXPECT_EQ(t.Read("quarantine/q.jsonl.torn-at-11"), "{\"id\":\"b\",\"subj");
  // A file that is one torn line.
  t.Write("one.jsonl", "{\"id\":");
  ASSERT_TRUE(AppendAndSync(t / "one.jsonl", "{\"id\":\"d\"}\n"));
  EXPECT_EQ(t.Read("one.jsonl"), "{\"id\":\"d\"}\n");
  EXPECT_EQ(t.Read("quarantine/one.jsonl.torn-at-0"), "{\"id\":");
  // A file below the store's top keeps its place below quarantine/.
  t.Write("seen/s1.files", "a.cc\nsrc/b");
  auto f = AppendFile::Open(t / "seen/s1.files", kAppendLockTimeout, t.path());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->quarantined(), t / "quarantine/seen/s1.files.torn-at-5");
  EXPECT_EQ(t.Read("quarantine/seen/s1.files.torn-at-5"), "src/b");
  EXPECT_EQ(t.Read("seen/s1.files"), "a.cc\n");
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
  EXPECT_EQ(t.Read("quarantine/q.jsonl.torn-at-11"), "{\"i");
}

}  // namespace
}  // namespace lore::proposals
