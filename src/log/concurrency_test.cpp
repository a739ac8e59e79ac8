// Many processes appending to one checked log at once: no line lost or torn.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "lore/log/checked_log.h"
#include "lore/log/jsonl.h"
#include "support/temp_dir.h"

namespace lore::log {
namespace {

TEST(CheckedLogConcurrency, EightProcessesFiveHundredAppendsEach) {
  testing::TempDir t;
  t.Write("raw.jsonl", "");
  LogPaths paths{t / "raw.jsonl", t / "cache", "fix it", "", true};
  constexpr int kProcs = 8, kEach = 500;
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcs; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // A line long enough that a torn write would show.
      std::string pad(300, static_cast<char>('a' + p));
      for (int i = 0; i < kEach; ++i) {
        std::string line = "{\"p\":" + std::to_string(p) + ",\"i\":" + std::to_string(i) +
                           ",\"pad\":\"" + pad + "\"}";
        if (!Append(paths, line)) _exit(1);
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
  std::string data = t.Read("raw.jsonl");
  ScanResult scan = ScanObjects(data);
  EXPECT_TRUE(scan.problems.empty());
  EXPECT_EQ(scan.objects, kProcs * kEach);
  EXPECT_EQ(scan.lines, kProcs * kEach);
  // Every (process, index) pair exactly once.
  std::vector<int> seen(kProcs * kEach, 0);
  LineScanner s(data);
  Line l;
  while (s.Next(&l)) {
    int p = std::stoi(std::string(l.text.substr(5)));
    size_t ipos = l.text.find("\"i\":") + 4;
    int i = std::stoi(std::string(l.text.substr(ipos)));
    ++seen[p * kEach + i];
  }
  for (int v : seen) ASSERT_EQ(v, 1);
  // The remembered identity is right afterwards: the next append is not a full re-read.
  auto next = Append(paths, "{\"last\":true}");
  ASSERT_TRUE(next);
  EXPECT_FALSE(next->revalidated);
  EXPECT_EQ(next->line, kProcs * kEach + 1);
}

}  // namespace
}  // namespace lore::log
