#include "proc/process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/temp_dir.h"

namespace lore::proc {
namespace {

namespace stdfs = std::filesystem;

// Waits (at most 10 s) for `path` to hold a complete report (a last line "end").
std::string WaitForReport(const std::string& path) {
  for (int i = 0; i < 1000; ++i) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    if (s.size() >= 4 && s.compare(s.size() - 4, 4, "end\n") == 0) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return {};
}

TEST(Process, StartDetachedRunsInItsOwnSessionWithNothingOfOursOpen) {
  testing::TempDir t;
  const std::string report = t / "report";
  // A descriptor without O_CLOEXEC: the child must not inherit it.
  int leaked = ::open((t / "leak").c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(leaked, 3);
  const std::string script = "exec > " + report +
                             "; awk '{print $6}' /proc/$$/stat; echo $$; ls /proc/$$/fd; "
                             "readlink /proc/$$/fd/0 /proc/$$/fd/2; echo end";
  ASSERT_TRUE(StartDetached({"/bin/sh", "-c", script}, "a test child"));
  ::close(leaked);
  std::string out = WaitForReport(report);
  ASSERT_FALSE(out.empty()) << "the child never wrote its report";
  std::istringstream in(out);
  std::string sid, pid;
  in >> sid >> pid;
  EXPECT_EQ(sid, pid) << "not a session leader";
  // The shell holds 0 and 2 on /dev/null, 1 on the report, and nothing else.
  EXPECT_NE(out.find("\n0\n1\n2\n/dev/null\n/dev/null\nend\n"), std::string::npos) << out;
}

TEST(Process, StartDetachedOfAMissingProgramIsAnError) {
  auto s = StartDetached({"/nonexistent/lore-nothing"}, "the nothing");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().Format().find("cannot start the nothing"), std::string::npos)
      << s.error().Format();
  EXPECT_FALSE(StartDetached({}, "nothing"));
}

TEST(Process, RunWaitsAndGivesTheExitStatus) {
  EXPECT_EQ(proc::Run({"/bin/sh", "-c", "exit 7"}), 7);
  EXPECT_EQ(proc::Run({"/bin/sh", "-c", "kill -9 $$"}), 128 + 9);
  EXPECT_FALSE(proc::Run({"/nonexistent/lore-nothing"}));
}

TEST(Process, RunCanSendTheChildsOutputToOurStandardError) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(proc::Run({"/bin/sh", "-c", "echo to-out; echo to-err >&2"}, Streams::kStdoutToStderr),
            0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "to-out\nto-err\n");
}

TEST(Process, ExecFailureReturnsTheError) {
  Error e = Exec({"/nonexistent/lore-nothing"});
  EXPECT_NE(e.Format().find("/nonexistent/lore-nothing"), std::string::npos);
}

TEST(Process, SelfExeAndBeside) {
  auto self = SelfExe();
  ASSERT_TRUE(self);
  EXPECT_TRUE(stdfs::exists(*self));
  EXPECT_EQ(Beside("lore"), (stdfs::path(*self).parent_path() / "lore").string());
}

}  // namespace
}  // namespace lore::proc
