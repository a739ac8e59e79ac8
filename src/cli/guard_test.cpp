#include "cli/guard.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

namespace lore::cli {
namespace {

TEST(GuardTest, PassesTheBodysExitCode) {
  EXPECT_EQ(RunGuarded("t: ", kExitInternal, [] { return 3; }), 3);
}

TEST(GuardTest, AnEscapedExceptionIsOneLineAndTheCode) {
  ::testing::internal::CaptureStderr();
  int code = RunGuarded("t: ", kExitInternal, []() -> int { throw std::out_of_range("boom\nx"); });
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, kExitInternal);
  EXPECT_EQ(err,
            "t: internal error: boom x; report this bug (nothing was written after the "
            "failure)\n");
}

TEST(GuardTest, HooksExitZero) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(RunGuarded("t: ", 0, []() -> int { throw 42; }), 0);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("an unknown exception"),
            std::string::npos);
}

TEST(GuardDeathTest, TerminateFromAnotherThreadIsOneLineAndTheCode) {
  EXPECT_EXIT(RunGuarded("t: ", kExitInternal,
                         [] {
                           std::thread([] { throw std::runtime_error("in a thread"); }).join();
                           return 0;
                         }),
              ::testing::ExitedWithCode(kExitInternal), "t: internal error: in a thread");
}

}  // namespace
}  // namespace lore::cli
