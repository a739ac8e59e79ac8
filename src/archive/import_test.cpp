#include <gtest/gtest.h>

#include <filesystem>

#include "archive/unpack.h"
#include "lore/archive/archive.h"
#include "support/tar.h"
#include "support/temp_dir.h"

namespace lore::archive {
namespace {

namespace stdfs = std::filesystem;

constexpr const char* kManifest =
    R"({"format":"lore-store-archive","version":1,"key":"github.com_acme_widgets"})";
constexpr const char* kIndex = "---\ntitle: t\nupdated: 2026-01-01\ntags: []\n---\n";

class ImportLimitsTest : public ::testing::Test {
 protected:
  // A valid store archive with `extra` files of `size` bytes each.
  std::string Archive(int extra, size_t size) {
    testing::Tar tar;
    tar.Add("manifest.json", '0', kManifest);
    tar.Add("store/raw.jsonl", '0', "");
    tar.Add("store/okf/index.md", '0', kIndex);
    for (int i = 0; i < extra; ++i) {
      tar.Add("store/knowledge/k" + std::to_string(i) + ".md", '0', std::string(size, 'x'));
    }
    t_.Write("a.tar", tar.Finish());
    return t_ / "a.tar";
  }
  Result<ImportReport> Run(const std::string& archive, const ImportLimits& limits) {
    ImportOptions o;
    o.limits = limits;
    return Import(archive, t_ / "stores", o);
  }
  bool LeftNothing() const {
    std::error_code ec;
    return stdfs::is_empty(t_ / "stores", ec);
  }
  testing::TempDir t_;
};

TEST_F(ImportLimitsTest, WithinTheLimitsTheArchiveIsImported) {
  ImportLimits l;
  l.max_entries = 5;  // manifest, raw.jsonl, okf/index.md and two files
  l.max_entry_bytes = 100;
  l.max_total_bytes = 200;  // the index is 45 bytes
  auto r = Run(Archive(2, 10), l);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->summary.files, 4);
  EXPECT_EQ(r->config, "none");
}

TEST_F(ImportLimitsTest, TooManyEntries) {
  ImportLimits l;
  l.max_entries = 4;
  auto r = Run(Archive(2, 1), l);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().what, "archive has too many entries (more than 4)");
  EXPECT_TRUE(LeftNothing());
}

TEST_F(ImportLimitsTest, AnEntryTooLarge) {
  ImportLimits l;
  l.max_entry_bytes = 100;
  auto r = Run(Archive(1, 101), l);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().what,
            "archive entry store/knowledge/k0.md is too large (more than 100 bytes)");
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_TRUE(LeftNothing());
}

TEST_F(ImportLimitsTest, TooMuchInAll) {
  ImportLimits l;
  l.max_total_bytes = 60;  // the index and one file fit, not the second
  auto r = Run(Archive(2, 10), l);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().what, "archive unpacks to too much (more than 60 bytes)");
  EXPECT_TRUE(LeftNothing());
}

TEST_F(ImportLimitsTest, ExpandingTooMuch) {
  ImportLimits l;
  l.ratio_floor_bytes = 0;
  l.max_ratio = 1;  // a plain tar holds its files and their headers: never more
  ASSERT_TRUE(Run(Archive(1, 100), l));
  stdfs::remove_all(t_ / "stores");
  l.max_ratio = 0;  // nothing may be unpacked
  auto r = Run(Archive(1, 100), l);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().what.rfind("archive expands too much (more than 0 times its ", 0), 0u)
      << r.error().what;
  EXPECT_TRUE(LeftNothing());
}

// The count is checked in a first pass over the headers: an archive past it
// is refused before a single file is written.
TEST_F(ImportLimitsTest, TheEntryCountIsCheckedBeforeAnythingIsWritten) {
  ImportLimits l;
  l.max_entries = 4;
  const std::string archive = Archive(2, 1);
  stdfs::create_directory(t_ / "unpacked");
  auto r = Unpack(archive, t_ / "unpacked", l);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().what, "archive has too many entries (more than 4)");
  EXPECT_TRUE(stdfs::is_empty(t_ / "unpacked"));
}

// Locks and this machine's team state, which an older lore exported, are
// skipped (and still counted against the manifest's count).
TEST_F(ImportLimitsTest, MachineLocalEntriesAreSkipped) {
  testing::Tar tar;
  tar.Add("store/raw.jsonl", '0', "");
  tar.Add("store/okf/index.md", '0', kIndex);
  tar.Add("store/proposals-write.lock", '0', R"({"pid":1,"host":"h","acquiredAt":""})");
  tar.Add("store/team/", '5');
  tar.Add("store/team/machine_id", '0', "0123456789abcdef\n");
  tar.Add("store/team/push-state.json", '0', "{}");
  tar.Add("store/team/m2/", '5');
  tar.Add("store/team/m2/raw.jsonl", '0', "");
  tar.Add(
      "manifest.json", '0',
      R"({"format":"lore-store-archive","version":1,"key":"github.com_acme_widgets","files":6})");
  t_.Write("a.tar", tar.Finish());
  auto r = Run(t_ / "a.tar", ImportLimits{});
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->summary.files, 3);
  const std::string dir = t_ / "stores/github.com_acme_widgets";
  EXPECT_FALSE(stdfs::exists(dir + "/proposals-write.lock"));
  EXPECT_FALSE(stdfs::exists(dir + "/team/machine_id"));
  EXPECT_FALSE(stdfs::exists(dir + "/team/push-state.json"));
  EXPECT_TRUE(stdfs::exists(dir + "/team/m2/raw.jsonl"));
}

TEST(ArchiveTruth, WhatIsMachineLocal) {
  for (const char* rel : {"proposals-write.lock", "team/sync.lock", "extract/s1.lock",
                          "team/machine_id", "team/push-state.json", "team/pull-state.json",
                          "team/records-state.json", "team/review-claim.jsonl"}) {
    EXPECT_TRUE(IsMachineLocal(rel)) << rel;
    EXPECT_FALSE(IsTruth(rel)) << rel;
  }
  for (const char* rel : {"raw.jsonl", "team/m2/raw.jsonl", "team/conflicts/knowledge/a.m2.md",
                          "team/m2/machine_id", "config.toml", "extract/s1.json", "usage.jsonl"}) {
    EXPECT_FALSE(IsMachineLocal(rel)) << rel;
    EXPECT_TRUE(IsTruth(rel)) << rel;
  }
  // Recall's own files: the usage fold (derived) and the sessions' file lists.
  for (const char* rel : {"recall/usage.fold", "recall/s1.files"})
    EXPECT_FALSE(IsTruth(rel)) << rel;
}

}  // namespace
}  // namespace lore::archive
