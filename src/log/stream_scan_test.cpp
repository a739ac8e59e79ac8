#include "log/stream_scan.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>

#include "lore/fs/fd.h"
#include "support/temp_dir.h"

namespace lore::log {
namespace {

// A log mixing every kind of line, some longer than the small chunks below.
std::string MixedLog(unsigned seed, bool final_newline) {
  std::mt19937 rng(seed);
  const std::vector<std::string> kinds = {"{\"a\":1}",
                                          "",
                                          "   \t",
                                          "[1,2]",
                                          "{\"cut\":",
                                          "not json",
                                          "{\"u\":\"\xc3\x28\"}",
                                          "{\"long\":\"" + std::string(300, 'x') + "\"}",
                                          "{\"bad\":\"" + std::string(200, 'y') + "\"",
                                          "{\"b\":\"naïve\"}\r"};
  std::string out;
  for (int i = 0; i < 200; ++i) out += kinds[rng() % kinds.size()] + "\n";
  if (!final_newline) out += "{\"last\":";
  return out;
}

class StreamScanTest : public ::testing::Test {
 protected:
  ScanResult Scan(const std::string& data, StreamLimits limits, size_t max_problems = SIZE_MAX) {
    t_.Write("log", data);
    auto fd = fs::Open(t_ / "log", O_RDONLY);
    EXPECT_TRUE(fd);
    auto r = ScanFd(fd->get(), data.size(), t_ / "log", max_problems, limits);
    EXPECT_TRUE(r) << r.error().Format();
    return r ? *r : ScanResult{};
  }
  testing::TempDir t_;
};

void ExpectSame(const ScanResult& a, const ScanResult& b, const std::string& label) {
  EXPECT_EQ(a.lines, b.lines) << label;
  EXPECT_EQ(a.objects, b.objects) << label;
  EXPECT_EQ(a.ends_with_newline, b.ends_with_newline) << label;
  ASSERT_EQ(a.problems.size(), b.problems.size()) << label;
  for (size_t i = 0; i < a.problems.size(); ++i) {
    EXPECT_EQ(a.problems[i].line, b.problems[i].line) << label << " problem " << i;
    EXPECT_EQ(a.problems[i].what, b.problems[i].what) << label << " problem " << i;
  }
}

TEST_F(StreamScanTest, ChunkedScanFindsWhatAWholeScanFinds) {
  for (bool newline : {true, false}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      std::string data = MixedLog(seed, newline);
      ScanResult whole = ScanObjects(data);
      ASSERT_FALSE(whole.problems.empty());
      for (size_t chunk : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{301}, size_t{4096},
                           kScanChunkBytes}) {
        ExpectSame(Scan(data, {chunk, kMaxLineBytes}), whole,
                   "chunk " + std::to_string(chunk) + " seed " + std::to_string(seed));
      }
    }
  }
}

TEST_F(StreamScanTest, EmptyAndBlankLogs) {
  ExpectSame(Scan("", {}), ScanObjects(""), "empty");
  ExpectSame(Scan("\n\n  \n", {4, 100}), ScanObjects("\n\n  \n"), "blank");
}

TEST_F(StreamScanTest, LineLongerThanAChunkIsCheckedWhole) {
  std::string good = "{\"a\":\"" + std::string(5000, 'x') + "\"}";
  std::string bad = "{\"a\":\"" + std::string(5000, 'x') + "\"";
  ScanResult r = Scan(good + "\n" + bad + "\n" + good + "\n", {16, 1 << 20});
  EXPECT_EQ(r.lines, 3);
  EXPECT_EQ(r.objects, 2);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].what, "not valid JSON: JSON text ends inside a value");
}

TEST_F(StreamScanTest, LineBeyondTheMaximumIsReportedAsTooLong) {
  std::string huge = "{\"a\":\"" + std::string(1000, 'x') + "\"}";
  // In the middle, cut by chunks of several sizes, and as a last line without newline.
  for (size_t chunk : {size_t{8}, size_t{100}, size_t{4096}}) {
    std::string label = "chunk " + std::to_string(chunk);
    ScanResult r = Scan("{\"a\":1}\n" + huge + "\n[1]\n", {chunk, 64});
    EXPECT_EQ(r.lines, 3) << label;
    EXPECT_EQ(r.objects, 1) << label;
    EXPECT_TRUE(r.ends_with_newline) << label;
    ASSERT_EQ(r.problems.size(), 2u) << label;
    EXPECT_EQ(r.problems[0].line, 2) << label;
    EXPECT_EQ(r.problems[0].what, "line longer than 64 bytes") << label;
    EXPECT_EQ(r.problems[1].line, 3) << label;

    ScanResult last = Scan("{\"a\":1}\n" + huge, {chunk, 64});
    EXPECT_EQ(last.lines, 2) << label;
    EXPECT_FALSE(last.ends_with_newline) << label;
    ASSERT_EQ(last.problems.size(), 1u) << label;
    EXPECT_EQ(last.problems[0].line, 2) << label;
  }
  // A line of exactly the maximum is still checked.
  std::string exact = "{\"a\":\"" + std::string(56, 'x') + "\"}";
  ASSERT_EQ(exact.size(), 64u);
  ScanResult ok = Scan(exact + "\n", {8, 64});
  EXPECT_TRUE(ok.problems.empty());
  EXPECT_EQ(ok.objects, 1);
  EXPECT_EQ(TooLongLine(kMaxLineBytes), "line longer than 16 MiB");
}

TEST_F(StreamScanTest, StopsAtMaxProblemsAndReadsOnlyTheGivenSize) {
  ScanResult r = Scan("x\ny\nz\n", {2, 100}, 2);
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[1].line, 2);

  t_.Write("log", "{\"a\":1}\nnot json written later\n");
  auto fd = fs::Open(t_ / "log", O_RDONLY);
  ASSERT_TRUE(fd);
  auto part = ScanFd(fd->get(), 8, t_ / "log");
  ASSERT_TRUE(part);
  EXPECT_EQ(part->lines, 1);
  EXPECT_TRUE(part->problems.empty());
  // A size beyond the end (the file shrank) ends at the end.
  auto beyond = ScanFd(fd->get(), 1000, t_ / "log");
  ASSERT_TRUE(beyond);
  EXPECT_EQ(beyond->lines, 2);
  EXPECT_EQ(beyond->problems.size(), 1u);
}

}  // namespace
}  // namespace lore::log
