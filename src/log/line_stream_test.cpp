#include "lore/log/line_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace lore::log {
namespace {

struct Seen {
  int64_t number;
  std::string text;
  bool oversized;
  uint64_t end;
};

class LineStreamTest : public ::testing::Test {
 protected:
  void SetUp() override { f_ = std::tmpfile(); }
  void TearDown() override { std::fclose(f_); }
  void Put(const std::string& s) {
    std::fwrite(s.data(), 1, s.size(), f_);
    std::fflush(f_);
    size_ += s.size();
  }
  std::vector<Seen> Read(uint64_t offset, int64_t first, StreamLimits lim, StreamEnd* end) {
    std::vector<Seen> out;
    auto r = StreamLines(
        ::fileno(f_), offset, first, size_, "t.jsonl",
        [&](const StreamedLine& l) {
          out.push_back({l.number, std::string(l.text), l.oversized, l.end});
          return true;
        },
        lim);
    EXPECT_TRUE(r.has_value());
    if (r) *end = *r;
    return out;
  }
  std::FILE* f_ = nullptr;
  uint64_t size_ = 0;
};

TEST_F(LineStreamTest, CompleteLinesOnlyAcrossChunks) {
  Put("alpha\nbeta\ngamma\npartial");
  StreamEnd end;
  auto seen = Read(0, 1, {4, 100}, &end);  // chunks smaller than lines
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].text, "alpha");
  EXPECT_EQ(seen[2].text, "gamma");
  EXPECT_EQ(seen[2].number, 3);
  EXPECT_EQ(end.last_line, 3);
  EXPECT_EQ(end.end, 17u);  // past "gamma\n": the partial line is left
}

TEST_F(LineStreamTest, ResumesFromAnOffsetWithItsLineNumber) {
  Put("one\ntwo\nthree\n");
  StreamEnd end;
  auto seen = Read(4, 2, {}, &end);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].number, 2);
  EXPECT_EQ(seen[0].text, "two");
  EXPECT_EQ(end.last_line, 3);
  EXPECT_EQ(end.end, 14u);
}

TEST_F(LineStreamTest, OversizedLineIsSkippedWithoutItsText) {
  Put("short\n" + std::string(1000, 'x') + "\nafter\n");
  StreamEnd end;
  auto seen = Read(0, 1, {16, 64}, &end);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_TRUE(seen[1].oversized);
  EXPECT_EQ(seen[1].text, "");
  EXPECT_EQ(seen[1].end, 6u + 1001u);
  EXPECT_EQ(seen[2].text, "after");
  EXPECT_EQ(seen[2].number, 3);
}

TEST_F(LineStreamTest, AnUnendedOversizedLineIsNotCounted) {
  Put("a\n" + std::string(500, 'y'));
  StreamEnd end;
  auto seen = Read(0, 1, {16, 64}, &end);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(end.last_line, 1);
  EXPECT_EQ(end.end, 2u);
}

TEST_F(LineStreamTest, NothingNewGivesTheStart) {
  Put("a\nb\n");
  StreamEnd end;
  auto seen = Read(4, 3, {}, &end);
  EXPECT_TRUE(seen.empty());
  EXPECT_EQ(end.last_line, 2);
  EXPECT_EQ(end.end, 4u);
}

}  // namespace
}  // namespace lore::log
