#include "log/torn_tail.h"

#include <fcntl.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "lore/fs/fd.h"
#include "lore/log/line_stream.h"
#include "support/temp_dir.h"

namespace lore::log {
namespace {

using testing::TempDir;

std::optional<uint64_t> Start(const TempDir& t, const std::string& text) {
  t.Write("log.jsonl", text);
  auto fd = fs::Open(t / "log.jsonl", O_RDONLY);
  EXPECT_TRUE(fd);
  auto start = TornTailStart(fd->get(), t / "log.jsonl");
  EXPECT_TRUE(start) << start.error().Format();
  return *start;
}

TEST(TornTail, OnlyALastLineThatIsNoWholeObjectIsTorn) {
  TempDir t;
  EXPECT_EQ(Start(t, ""), std::nullopt);
  EXPECT_EQ(Start(t, "{\"a\":1}\n"), std::nullopt);
  EXPECT_EQ(Start(t, "{\"a\":1}\n{\"b\":2}"), std::nullopt);  // whole, newline missing
  EXPECT_EQ(Start(t, "{\"a\":1}\n  "), std::nullopt);         // blank
  EXPECT_EQ(Start(t, "{\"a\":1}\n{\"b\":"), std::optional<uint64_t>(8));
  EXPECT_EQ(Start(t, "{\"b\":"), std::optional<uint64_t>(0));
  EXPECT_EQ(Start(t, "{\"a\":1}\nnot json\n{\"b\":2}\n"), std::nullopt);  // a middle line
  // A tail longer than a line may be is torn whatever it holds, from its start.
  std::string big = "{\"a\":1}\n{\"x\":\"" + std::string(kMaxLineBytes + 10, 'x') + "\"}";
  EXPECT_EQ(Start(t, big), std::optional<uint64_t>(8));
  // A tail longer than one read chunk, found whole.
  EXPECT_EQ(Start(t, "{\"a\":1}\n{\"x\":\"" + std::string(3 << 20, 'x')),
            std::optional<uint64_t>(8));
}

TEST(TornTail, QuarantineMovesTheTailAsideAndCutsTheLog) {
  TempDir t;
  const std::string whole = "{\"a\":1}\n{\"b\":2}\n", torn = "{\"c\":";
  t.Write("log.jsonl", whole + torn);
  auto aside = [&](uint64_t offset) -> Result<std::string> {
    return t / ("log.jsonl.torn-at-" + std::to_string(offset));
  };
  auto moved = QuarantineTornTail(t / "log.jsonl", TornTailStart, aside);
  ASSERT_TRUE(moved) << moved.error().Format();
  ASSERT_TRUE(*moved);
  EXPECT_EQ(**moved, t / "log.jsonl.torn-at-16");
  EXPECT_EQ(t.Read("log.jsonl"), whole);
  EXPECT_EQ(t.Read("log.jsonl.torn-at-16"), torn);
  // Nothing torn: nothing written.
  auto again = QuarantineTornTail(t / "log.jsonl", TornTailStart, aside);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);

  // A run that died after its copy was in place only cuts the log.
  t.Write("log.jsonl", whole + torn);
  moved = QuarantineTornTail(t / "log.jsonl", TornTailStart, aside);
  ASSERT_TRUE(moved && *moved);
  EXPECT_EQ(t.Read("log.jsonl"), whole);
  EXPECT_EQ(t.Read("log.jsonl.torn-at-16"), torn);

  // Other bytes under the name are never overwritten: the next name is taken.
  t.Write("log.jsonl", whole + "{\"d\":");
  moved = QuarantineTornTail(t / "log.jsonl", TornTailStart, aside);
  ASSERT_TRUE(moved && *moved);
  EXPECT_EQ(**moved, t / "log.jsonl.torn-at-16.2");
  EXPECT_EQ(t.Read("log.jsonl"), whole);
  EXPECT_EQ(t.Read("log.jsonl.torn-at-16"), torn);
  EXPECT_EQ(t.Read("log.jsonl.torn-at-16.2"), "{\"d\":");
}

TEST(TornTail, TheErrorNamesTheFileTheLineAndTheRepair) {
  EXPECT_EQ(TornTailError("/s/raw.jsonl", 3).Format(),
            "torn last line (an append was cut off: no newline, not a whole JSON object): "
            "/s/raw.jsonl:3; run 'lore check --repair': it moves the torn bytes into the "
            "store's quarantine/ folder and cuts the file back to its last complete line");
}

}  // namespace
}  // namespace lore::log
