#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace lore::archive
