#include "consolidate/journal.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "lore/consolidate/staging.h"
#include "lore/store/store_lock.h"
#include "support/temp_dir.h"

namespace lore::consolidate {
namespace {

namespace stdfs = std::filesystem;

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_.Write("s/memory/decisions/a.md", "old a\n");
    t_.Write("s/staging/01a22d2a-f5dc-70d4-94d7-4eba277267d9.json", "{}\n");
    t_.Write("s/staging/01a22d2a-f5dc-70d4-94d7-4eba277267da.json", "{}\n");
  }
  void TearDown() override { ::unsetenv("LORE_TEST_HOOK"); }
  store::Store Store() const { return store::Store::AtDir(t_.path(), "s"); }
  std::vector<std::string> Staged() const {
    std::vector<std::string> out;
    auto staged = ListStaged(Store());
    for (const auto& f : *staged) out.push_back(f.id);
    return out;
  }

  testing::TempDir t_;
  const std::string consumed_ = "01a22d2a-f5dc-70d4-94d7-4eba277267d9";
  const std::string kept_ = "01a22d2a-f5dc-70d4-94d7-4eba277267da";
  const std::string run_ = "01a22d2a-f5dc-70d4-94d7-4eba27726700";  // journals name runs by UUIDv7
};

TEST_F(JournalTest, CommitReplacesFilesAndRemovesOnlyConsumedEntries) {
  Workspace ws(Store().dir());
  ASSERT_EQ(**ws.Read("memory/decisions/a.md"), "old a\n");
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  ASSERT_TRUE(ws.Write("knowledge/k.md", "new k\n"));
  ASSERT_TRUE(ws.Write("memory/requests/same.md", "x"));
  auto changes = ws.Changes();
  ASSERT_EQ(changes.size(), 3u);
  ASSERT_TRUE(CommitRun(Store(), "r1", changes, ws.Baselines(), {consumed_}));
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "new a\n");
  EXPECT_EQ(t_.Read("s/knowledge/k.md"), "new k\n");
  EXPECT_EQ(Staged(), std::vector<std::string>{kept_});
  EXPECT_FALSE(stdfs::exists(t_ / "s/staging/.consolidation.journal"));
  EXPECT_EQ(stdfs::status(t_ / "s/knowledge").permissions() & stdfs::perms::all,
            stdfs::perms::owner_all);
  // What the commit displaced waits in the run folder: the old a.md (exchanged
  // with its shadow) and the consumed entry.
  EXPECT_EQ(t_.Read("s/staging/.run-r1/1"), "old a\n");  // changes are in path order: k.md is 0
  EXPECT_TRUE(stdfs::exists(t_ / ("s/staging/.run-r1/consumed/" + consumed_ + ".json")));
  RemoveRunFolder(Store(), "r1", Removal::kNow);
  EXPECT_FALSE(stdfs::exists(t_ / "s/staging/.run-r1"));
}

// Run folders are placed like top-level folders (away from recent deletions)
// where the file system has the flag; elsewhere nothing is asked.
TEST_F(JournalTest, TheStagingFolderAsksForSpreadRunFolders) {
  auto flags_of = [](const std::string& dir) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    int flags = -1;
    if (fd >= 0 && ::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = -1;
    if (fd >= 0) ::close(fd);
    return flags;
  };
  std::string staging = Store().Path("staging");
  if (flags_of(staging) < 0) GTEST_SKIP() << "no inode flags on this file system";
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  ASSERT_TRUE(CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_}));
  int flags = flags_of(staging);
  struct statfs fs {};
  ASSERT_EQ(::statfs(staging.c_str(), &fs), 0);
  if (fs.f_type == 0xEF53) {  // ext2/3/4 keep the flag; others may refuse it
    EXPECT_TRUE(flags & FS_TOPDIR_FL) << std::hex << flags;
  }
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "new a\n");
  // Committing again with the flag already set works the same.
  Workspace again(Store().dir());
  ASSERT_TRUE(again.Write("memory/decisions/a.md", "newer a\n"));
  ASSERT_TRUE(CommitRun(Store(), "r2", again.Changes(), again.Baselines(), {}));
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "newer a\n");
  EXPECT_EQ(flags_of(staging), flags);
}

TEST_F(JournalTest, AFileChangedMeanwhileRefusesTheCommitAndChangesNothing) {
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  ASSERT_TRUE(ws.Write("memory/decisions/b.md", "new b\n"));
  t_.Write("s/memory/decisions/b.md", "someone else\n");
  auto c = CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_});
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_FALSE(c->committed);
  EXPECT_EQ(c->changed, "memory/decisions/b.md");
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "old a\n");
  EXPECT_EQ(t_.Read("s/memory/decisions/b.md"), "someone else\n");
  EXPECT_EQ(Staged().size(), 2u);
  EXPECT_FALSE(stdfs::exists(t_ / "s/staging/.run-r1"));
  Error e = ConflictError(Store(), c->changed, 3);
  EXPECT_EQ(e.code, ErrorCode::kBusy);
  EXPECT_EQ(e.Format(), "changed while the consolidation ran (3 attempts): " +
                            Store().Path("memory/decisions/b.md") +
                            "; nothing was changed; the staged entries stay for the next "
                            "consolidation");
}

// The same inode, size and mtime but other bytes (a program that rewrote the
// file in place and put its time back) is a change too.
TEST_F(JournalTest, AnInPlaceRewriteWithItsTimeRestoredIsAChange) {
  Workspace ws(Store().dir());
  ASSERT_EQ(**ws.Read("memory/decisions/a.md"), "old a\n");
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  std::string path = Store().Path("memory/decisions/a.md");
  struct stat before;
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  int fd = ::open(path.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pwrite(fd, "OLD", 3, 0), 3);
  struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::futimens(fd, times), 0);
  ::close(fd);
  auto c = CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_});
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_FALSE(c->committed);
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "OLD a\n");
}

// A record edit that lands while the run is held before its commit point is
// seen by the re-check under the store lock: the commit refuses, the edit
// stays, and the staged entries stay for the next run.
TEST_F(JournalTest, AnEditDuringBeforeCommitIsNeverOverwritten) {
  std::string go = t_ / "go";
  ::setenv("LORE_TEST_HOOK", ("before-commit:wait=" + go).c_str(), 1);
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  Result<CommitOutcome> c = CommitOutcome{};
  std::atomic<bool> done{false};
  std::thread run([&] {
    c = CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_});
    done = true;
  });
  // The shadow exists once the run waits at before-commit (or just before).
  while (!done && !stdfs::exists(t_ / "s/staging/.run-r1/0")) std::this_thread::yield();
  auto lock = store::StoreLock::Acquire(Store().dir(), fs::LockMode::kExclusive);
  ASSERT_TRUE(lock) << lock.error().Format();
  t_.Write("s/memory/decisions/a.md", "edited by hand\n");
  { auto released = std::move(*lock); }
  t_.Write("go", "");
  run.join();
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_FALSE(c->committed);
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "edited by hand\n");
  EXPECT_EQ(Staged().size(), 2u);
}

// Once the store lock is held by a record write, the commit waits for it and
// then sees what the write did.
TEST_F(JournalTest, TheCommitWaitsForTheStoreLock) {
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  auto lock = store::StoreLock::Acquire(Store().dir(), fs::LockMode::kExclusive);
  ASSERT_TRUE(lock);
  std::atomic<bool> done{false};
  Result<CommitOutcome> c = CommitOutcome{};
  std::thread run([&] {
    c = CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_});
    done = true;
  });
  while (!done && !stdfs::exists(t_ / "s/staging/.run-r1/0")) std::this_thread::yield();
  t_.Write("s/memory/decisions/a.md", "written under the lock\n");
  EXPECT_FALSE(done.load());  // it cannot have passed the lock we hold
  { auto released = std::move(*lock); }
  run.join();
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_FALSE(c->committed);
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "written under the lock\n");
}

TEST_F(JournalTest, AVanishedStagedEntryFailsTheCommit) {
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  stdfs::remove(t_ / ("s/staging/" + consumed_ + ".json"));
  auto c = CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().what, "a staged entry of the run vanished while it ran");
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "old a\n");
  EXPECT_FALSE(stdfs::exists(t_ / "s/staging/.run-r1"));
}

TEST_F(JournalTest, FailureBeforeTheJournalChangesNothing) {
  ::setenv("LORE_TEST_HOOK", "before-commit:fail", 1);
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  ASSERT_FALSE(CommitRun(Store(), "r1", ws.Changes(), ws.Baselines(), {consumed_}));
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "old a\n");
  EXPECT_EQ(Staged().size(), 2u);
  ASSERT_TRUE(Recover(Store()));
  EXPECT_EQ(*Recover(Store()), "");
}

TEST_F(JournalTest, LaterRemovalMovesTheRunFolderAsideUntilRemoveTrash) {
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  ASSERT_TRUE(CommitRun(Store(), "r2", ws.Changes(), ws.Baselines(), {consumed_}));
  std::string trash = RemoveRunFolder(Store(), "r2", Removal::kLater);
  EXPECT_EQ(trash, std::string(t_ / "s/staging/.trash-r2"));
  EXPECT_FALSE(stdfs::exists(t_ / "s/staging/.run-r2"));
  EXPECT_TRUE(stdfs::exists(trash));
  // Fresh trash is not swept (another process may be removing it)...
  ASSERT_TRUE(Recover(Store()));
  EXPECT_TRUE(stdfs::exists(trash));
  RemoveTrash({trash, trash});  // ...and trash removed twice is no error
  EXPECT_FALSE(stdfs::exists(trash));
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "new a\n");
}

TEST_F(JournalTest, FailureAfterTheJournalIsRolledForward) {
  ::setenv("LORE_TEST_HOOK", "mid-commit:fail", 1);
  Workspace ws(Store().dir());
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "new a\n"));
  ASSERT_TRUE(ws.Write("memory/decisions/b.md", "new b\n"));
  ASSERT_FALSE(CommitRun(Store(), run_, ws.Changes(), ws.Baselines(), {consumed_}));
  // Half applied on disk until recovery: a.md moved, b.md not yet.
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "new a\n");
  EXPECT_FALSE(stdfs::exists(t_ / "s/memory/decisions/b.md"));
  ::unsetenv("LORE_TEST_HOOK");
  auto r = Recover(Store());
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(*r, run_);
  EXPECT_EQ(t_.Read("s/memory/decisions/a.md"), "new a\n");
  EXPECT_EQ(t_.Read("s/memory/decisions/b.md"), "new b\n");
  EXPECT_EQ(Staged(), std::vector<std::string>{kept_});
  EXPECT_EQ(*Recover(Store()), "");
}

TEST_F(JournalTest, RecoverSweepsUncommittedRunsAndRefusesABadJournal) {
  t_.Write("s/staging/.run-dead/0", "partial");
  ASSERT_TRUE(Recover(Store()));
  EXPECT_FALSE(stdfs::exists(t_ / "s/staging/.run-dead"));
  t_.Write(
      "s/staging/.consolidation.journal",
      R"({"run_id":"01a22be5-a500-7000-8000-000000000001","files":[["staging/.run-01a22be5-a500-7000-8000-000000000001/0","../outside.md",1]],"consumed_ids":[]})");
  auto r = Recover(Store());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().what, "consolidation journal is malformed");
}

TEST(Workspace, ListsDiskAndOverlayAndRestoresSnapshots) {
  testing::TempDir t;
  t.Write("memory/decisions/b.md", "b");
  t.Write("memory/decisions/.hidden.md", "h");
  Workspace ws(t.path());
  EXPECT_EQ(*ws.ListSlugs("memory/decisions"), std::vector<std::string>{"b"});
  auto snap = ws.Save();
  ASSERT_TRUE(ws.Write("memory/decisions/a.md", "a"));
  ASSERT_TRUE(ws.Write("memory/decisions/b.md", "b2"));
  EXPECT_EQ(*ws.ListSlugs("memory/decisions"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ws.Changes().size(), 2u);
  ws.Restore(snap);
  EXPECT_TRUE(ws.Changes().empty());
  EXPECT_EQ(**ws.Read("memory/decisions/b.md"), "b");
  EXPECT_FALSE(*ws.Read("memory/decisions/a.md"));
  EXPECT_EQ(*ws.ListSlugs("memory/decisions"), std::vector<std::string>{"b"});
}

}  // namespace
}  // namespace lore::consolidate
