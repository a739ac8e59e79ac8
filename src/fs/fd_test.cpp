#include "lore/fs/fd.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include "fs/open_beneath.h"
#include "lore/fs/tree.h"
#include "support/temp_dir.h"

namespace lore::fs {
namespace {

using Steady = std::chrono::steady_clock;

bool Contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

TEST(ReadFile, ReadsARegularFileWhole) {
  testing::TempDir t;
  t.Write("a.md", "hello\n");
  auto text = ReadFile(t / "a.md", Kind::kRecord);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(*text, "hello\n");
}

TEST(ReadFile, RefusesAFifoAtOnce) {
  testing::TempDir t;
  ASSERT_EQ(::mkfifo((t / "fifo").c_str(), 0600), 0);
  const auto start = Steady::now();
  auto text = ReadFile(t / "fifo", Kind::kConfig);
  EXPECT_LT(Steady::now() - start, std::chrono::seconds(2));
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kInvalidInput);
  EXPECT_TRUE(Contains(text.error().Format(), "not a regular file (a FIFO)"))
      << text.error().Format();
  EXPECT_TRUE(Contains(text.error().Format(), t / "fifo"));
}

TEST(ReadFile, RefusesADevice) {
  auto text = ReadFile("/dev/zero", Kind::kPlan);
  ASSERT_FALSE(text);
  EXPECT_TRUE(Contains(text.error().what, "a device")) << text.error().Format();
}

TEST(ReadFile, RefusesADirectory) {
  testing::TempDir t;
  t.Write("d/x", "x");
  auto text = ReadFile(t / "d", Kind::kRecord);
  ASSERT_FALSE(text);
  EXPECT_TRUE(Contains(text.error().what, "a directory")) << text.error().Format();
}

TEST(Open, RefusesASocketAndAFifoForWriting) {
  testing::TempDir t;
  const std::string sock = t / "sock";
  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, sock.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  auto r = Open(sock, O_RDONLY);
  ::close(s);
  ASSERT_FALSE(r);
  EXPECT_TRUE(Contains(r.error().what, "not a regular file")) << r.error().Format();

  ASSERT_EQ(::mkfifo((t / "fifo").c_str(), 0600), 0);
  auto w = Open(t / "fifo", O_WRONLY | O_APPEND | O_CREAT);
  ASSERT_FALSE(w);  // no reader: ENXIO at once, not a wait for one
  EXPECT_TRUE(Contains(w.error().what, "not a regular file")) << w.error().Format();
}

TEST(ReadFile, AFileOverTheCapIsAnErrorNamingSizeAndCap) {
  testing::TempDir t;
  t.Write("config.toml", std::string(Cap(Kind::kConfig) + 1, 'x'));
  auto text = ReadFile(t / "config.toml", Kind::kConfig);
  ASSERT_FALSE(text);
  const std::string line = text.error().Format();
  EXPECT_TRUE(
      Contains(line, "file too large (1048577 bytes; the cap for a configuration file is 1 MiB)"))
      << line;
  EXPECT_TRUE(Contains(line, t / "config.toml"));
  EXPECT_FALSE(text.error().repair.empty());
  t.Write("ok.toml", std::string(Cap(Kind::kConfig), 'x'));
  EXPECT_TRUE(ReadFile(t / "ok.toml", Kind::kConfig));
}

TEST(ReadAll, StopsAtTheCapWhenTheFileGrowsWhileRead) {
  // A pipe has no size to check first: the read itself is bounded.
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  std::string big(Cap(Kind::kConfig) + 100, 'x');
  ::signal(SIGPIPE, SIG_IGN);  // the writer outlives the reader's refusal
  // Write from a second thread so that the reader sees the bytes arrive.
  std::thread writer([&] {
    size_t off = 0;
    while (off < big.size()) {
      ssize_t n = ::write(p[1], big.data() + off, big.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    ::close(p[1]);
  });
  auto text = ReadAll(p[0], "pipe", Kind::kConfig);
  ::close(p[0]);
  writer.join();
  ASSERT_FALSE(text);
  EXPECT_TRUE(
      Contains(text.error().what,
               "file too large (over 1048576 bytes; the cap for a configuration file is 1 MiB)"))
      << text.error().what;
}

TEST(OpenBeneath, ReadsAFileThroughRealFolders) {
  testing::TempDir t;
  t.Write("store/memory/decisions/a.md", "A");
  auto text = ReadFileBeneath(t / "store", "memory/decisions/a.md", Kind::kRecord);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(*text, "A");
}

TEST(OpenBeneath, RefusesASymlinkedFolderAndNamesIt) {
  testing::TempDir t;
  t.Write("elsewhere/decisions/a.md", "secret");
  t.Write("store/raw.jsonl", "");
  ASSERT_EQ(::symlink((t / "elsewhere").c_str(), (t / "store/memory").c_str()), 0);
  auto text = ReadFileBeneath(t / "store", "memory/decisions/a.md", Kind::kRecord);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kSymlink);
  EXPECT_EQ(text.error().path, t / "store/memory");
  auto list = ListDirBeneath(t / "store", "memory/decisions");
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().code, ErrorCode::kSymlink);
  // The symlinked folder itself, opened as a folder (O_DIRECTORY answers ENOTDIR).
  auto top = ListDirBeneath(t / "store", "memory");
  ASSERT_FALSE(top);
  EXPECT_EQ(top.error().code, ErrorCode::kSymlink);
  EXPECT_EQ(top.error().path, t / "store/memory");
}

TEST(OpenBeneath, RefusesASymlinkedLastComponentAndDotDot) {
  testing::TempDir t;
  t.Write("outside.md", "x");
  t.Write("store/okf/real.md", "r");
  ASSERT_EQ(::symlink((t / "outside.md").c_str(), (t / "store/okf/index.md").c_str()), 0);
  auto link = ReadFileBeneath(t / "store", "okf/index.md", Kind::kIndexPage);
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().code, ErrorCode::kSymlink);
  auto up = ReadFileBeneath(t / "store", "okf/../../outside.md", Kind::kRecord);
  ASSERT_FALSE(up);
  EXPECT_EQ(up.error().code, ErrorCode::kInvalidInput);
}

TEST(OpenBeneath, AMissingFileIsNotFound) {
  testing::TempDir t;
  t.Write("store/okf/real.md", "r");
  auto text = ReadFileBeneath(t / "store", "memory/summary.md", Kind::kRecord);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kNotFound);
}

// The fallback where openat2 is missing (kernels before 5.6, seccomp).
TEST(OpenByWalk, RefusesASymlinkInAnyComponent) {
  testing::TempDir t;
  t.Write("elsewhere/decisions/a.md", "secret");
  t.Write("store/knowledge/k.md", "K");
  ASSERT_EQ(::symlink((t / "elsewhere").c_str(), (t / "store/memory").c_str()), 0);
  ASSERT_EQ(::symlink((t / "store/knowledge/k.md").c_str(), (t / "store/knowledge/l.md").c_str()),
            0);
  int root = ::open((t / "store").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(root, 0);
  Fd guard(root);
  int ok = internal::OpenByWalk(root, "knowledge/k.md", O_RDONLY, 0);
  EXPECT_GE(ok, 0);
  if (ok >= 0) ::close(ok);
  errno = 0;
  EXPECT_EQ(internal::OpenByWalk(root, "memory/decisions/a.md", O_RDONLY, 0), -1);
  EXPECT_EQ(errno, ELOOP);
  errno = 0;
  EXPECT_EQ(internal::OpenByWalk(root, "knowledge/l.md", O_RDONLY, 0), -1);
  EXPECT_EQ(errno, ELOOP);
  errno = 0;
  EXPECT_EQ(internal::OpenByWalk(root, "nothing/x.md", O_RDONLY, 0), -1);
  EXPECT_EQ(errno, ENOENT);
}

TEST(ListDir, ListsSortedWithTypes) {
  testing::TempDir t;
  t.Write("d/b.md", "b");
  t.Write("d/a/x", "x");
  ASSERT_EQ(::symlink("b.md", (t / "d/c.md").c_str()), 0);
  auto list = ListDirBeneath(t.path(), "d");
  ASSERT_TRUE(list) << list.error().Format();
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].name, "a");
  EXPECT_TRUE((*list)[0].is_dir);
  EXPECT_EQ((*list)[1].name, "b.md");
  EXPECT_TRUE((*list)[1].is_file);
  EXPECT_EQ((*list)[2].name, "c.md");
  EXPECT_FALSE((*list)[2].is_file);
  EXPECT_FALSE((*list)[2].is_dir);
}

TEST(ListDir, FullListingsGiveSizesAndTimes) {
  testing::TempDir t;
  t.Write("d/a.json", "12345");
  t.Write("d/sub/x", "x");
  auto list = ListDirBeneath(t.path(), "d", ListStat::kFull);
  ASSERT_TRUE(list) << list.error().Format();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].size, 5);
  EXPECT_GT((*list)[0].mtime, 1700000000);
  EXPECT_TRUE((*list)[1].is_dir);
  EXPECT_EQ((*list)[1].size, 0);
}

TEST(ListFolder, RefusesASymlinkAsTheFolderAndAMissingOneIsNotFound) {
  testing::TempDir t;
  t.Write("real/a", "a");
  ASSERT_EQ(::symlink((t / "real").c_str(), (t / "link").c_str()), 0);
  auto ok = ListFolder(t / "real");
  ASSERT_TRUE(ok) << ok.error().Format();
  EXPECT_EQ(ok->size(), 1u);
  auto link = ListFolder(t / "link");
  ASSERT_FALSE(link);
  auto missing = ListFolder(t / "absent");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

TEST(ListExisting, AMissingFolderIsEmptyAndASymlinkedOneStillAnError) {
  testing::TempDir t;
  t.Write("store/staging/a.json", "{}");
  t.Write("elsewhere/b.json", "{}");
  ASSERT_EQ(::symlink((t / "elsewhere").c_str(), (t / "store/sessions").c_str()), 0);
  auto ok = ListExisting(t / "store", "staging");
  ASSERT_TRUE(ok) << ok.error().Format();
  EXPECT_EQ(ok->size(), 1u);
  auto missing = ListExisting(t / "store", "memory/decisions");
  ASSERT_TRUE(missing) << missing.error().Format();
  EXPECT_TRUE(missing->empty());
  auto link = ListExisting(t / "store", "sessions");
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().code, ErrorCode::kSymlink);
  // A file where the folder should be is not "missing".
  t.Write("store/knowledge", "not a folder");
  EXPECT_FALSE(ListExisting(t / "store", "knowledge"));
}

}  // namespace
}  // namespace lore::fs
