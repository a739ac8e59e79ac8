// The fault driver (docs/testing.md): every store-changing operation of the
// real binary run with its n-th write, fsync, rename or open failing, for
// n = 1, 2, ... until the operation completes without reaching the fault.
// After each failing run the store passes `lore check` and `lore lint`, every
// JSONL line parses, what was acknowledged before is there exactly once, and
// the same operation run again without a fault succeeds.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <set>

#include "faults/ops.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using namespace faults;  // NOLINT: the driver's own vocabulary

struct Fault {
  std::string kind, err;
  bool and_later = false;  // the n-th call and every later one fail
};

std::vector<Fault> FaultsFor(const Op& op) {
  // In the sanitizer build every run is ~10x slower: one errno per kind there.
  std::vector<std::string> all = faults::SanitizerBuild()
                                     ? std::vector<std::string>{"EIO"}
                                     : std::vector<std::string>{"ENOSPC", "EIO", "EACCES"};
  std::vector<Fault> out;
  for (const char* kind : {"open", "write", "fsync", "rename"}) {
    for (const auto& e : op.errnos.empty() ? all : op.errnos) out.push_back({kind, e});
  }
  out.push_back({"write", "ENOSPC:short"});  // half a write lands, then the disk is full
  out.push_back({"write", "ENOSPC", true});  // the disk stays full
  return out;
}

class FaultInjection : public ::testing::TestWithParam<Op> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(stdfs::exists(faults::ShimPath()))
        << "the fault shim is missing: " << faults::ShimPath()
        << "; build the lore_fault target (cmake/LoreFaults.cmake)";
  }
  void Restore(const Ctx& c) const {
    // A consolidation's detached trash remover may still be at work in there.
    std::error_code ec;
    for (int i = 0; i < 100 && (stdfs::remove_all(c.Work(), ec), stdfs::exists(c.Work())); ++i) {
    }
    ASSERT_FALSE(stdfs::exists(c.Work())) << ec.message();
    stdfs::copy(t_ / "template", c.Work(), stdfs::copy_options::recursive);
    // A copy has new inodes: `ensure` re-checks raw.jsonl once, so that the
    // faulted run takes the path of an undisturbed store.
    c.Must({"ensure", kRepo});
  }
  // Everything that must hold after any run, faulted or not.
  void CheckStore(const Ctx& c, const Op& op, const Outcome& o, const std::string& where) const {
    SCOPED_TRACE(where);
    if (!op.settle.empty()) {
      auto settle = c.Lore(op.settle);
      EXPECT_EQ(settle.exit_code, 0) << settle.err;
    }
    auto check = c.Lore({"check", kRepo});
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    auto lint = c.Lore({"lint", kRepo});
    EXPECT_EQ(lint.exit_code, 0) << lint.out << lint.err;
    EXPECT_EQ(faults::BadJsonlLines(c.Store()), std::vector<std::string>{});
    op.verify(c, o);
  }

  TempDir t_;
};

TEST_P(FaultInjection, EveryCallFailsInTurnAndNothingIsLost) {
  const Op& op = GetParam();
  Ctx c(t_);
  stdfs::create_directories(c.Work());
  op.prepare(c);
  ASSERT_FALSE(HasFatalFailure());
  stdfs::copy(c.Work(), t_ / "template", stdfs::copy_options::recursive);
  const std::string count_file = t_ / "count";
  const auto start = std::chrono::steady_clock::now();
  int runs = 0, failures = 0;
  for (const Fault& f : FaultsFor(op)) {
    for (long n = 1;; ++n) {
      std::string where = op.name + " with " + f.kind + ":" + std::to_string(n) +
                          (f.and_later ? "+:" : ":") + f.err;
      SCOPED_TRACE(where);
      Restore(c);
      ASSERT_FALSE(HasFatalFailure());
      stdfs::remove(count_file);
      RunResult r =
          op.run(c, "a", faults::FaultEnv(f.kind, n, f.err, c.Work(), count_file, f.and_later));
      ++runs;
      long count = faults::ReadCount(count_file);
      ASSERT_GE(count, 0) << "the shim did not load: " << r.err;
      ASSERT_LT(r.exit_code, 128) << "killed by a signal: " << r.err;
      Outcome o;
      (r.exit_code == 0 ? o.acked : o.failed).insert("a");
      if (r.exit_code != 0) {
        ++failures;
        if (op.stdout_report && r.err.empty()) {
          EXPECT_FALSE(r.out.empty()) << "a failure that says nothing";
        } else {
          EXPECT_EQ(faults::Lines(r.err), 1u) << "one line on stderr: " << r.err;
          EXPECT_EQ(r.err.rfind("lore: ", 0), 0u) << r.err;
        }
      }
      CheckStore(c, op, o, where + " (the faulted run, exit " + std::to_string(r.exit_code) + ")");
      if (count < n) {
        EXPECT_EQ(r.exit_code, 0) << "failed without a fault: " << r.err;
        break;
      }
      RunResult again = op.run(c, "b", {});
      EXPECT_EQ(again.exit_code, 0) << "the retry failed: " << again.err << again.out;
      (again.exit_code == 0 ? o.acked : o.failed).insert("b");
      CheckStore(c, op, o, where + " (the retry)");
      if (HasFailure()) return;  // the first broken case says enough
    }
  }
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  std::cout << "[ faults   ] " << op.name << ": " << runs << " faulted runs, " << failures
            << " failed, " << took.count() << " ms\n";
}

INSTANTIATE_TEST_SUITE_P(Ops, FaultInjection,
                         ::testing::Values(AppendOp(), ProposeOp(), ReviewOp(), MemoryWriteOp(),
                                           MemoryEditOp(), ConsolidateOp(), DistillOp(), ExportOp(),
                                           ImportOp()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// The seam itself: a fault that is reached fails the call, a count that is
// not reached leaves the run alone, and the count says how many calls there were.
TEST(FaultShim, FailsTheNthCallAndCountsTheRest) {
  ASSERT_TRUE(stdfs::exists(faults::ShimPath())) << faults::ShimPath();
  TempDir t;
  Ctx c(t);
  stdfs::create_directories(c.Work());
  auto first =
      c.Lore({"ensure", kRepo}, {}, faults::FaultEnv("open", 1, "EACCES", c.Work(), t / "n"));
  EXPECT_EQ(first.exit_code, 1);
  EXPECT_NE(first.err.find("permission denied"), std::string::npos) << first.err;
  // The failed open, then the clean-up of the half-built skeleton (fs::RemoveTree
  // opens each folder it empties): the count is of every call, not only the failed one.
  EXPECT_GE(faults::ReadCount(t / "n"), 1);
  auto far =
      c.Lore({"ensure", kRepo}, {}, faults::FaultEnv("open", 100000, "EIO", c.Work(), t / "n"));
  EXPECT_EQ(far.exit_code, 0) << far.err;
  long opens = faults::ReadCount(t / "n");
  EXPECT_GT(opens, 0);
  EXPECT_LT(opens, 100000);
  // Calls outside the root are not counted.
  auto outside =
      c.Lore({"ensure", kRepo}, {}, faults::FaultEnv("open", 1, "EIO", t / "elsewhere", t / "n"));
  EXPECT_EQ(outside.exit_code, 0) << outside.err;
  EXPECT_EQ(faults::ReadCount(t / "n"), 0);
  auto bad = c.Lore({"ensure", kRepo}, {}, faults::FaultEnv("chmod", 1, "EIO", c.Work(), t / "n"));
  EXPECT_EQ(bad.exit_code, 86);
  EXPECT_NE(bad.err.find("unknown operation in LORE_FAULT"), std::string::npos) << bad.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
