#include "lore/app/pages.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/app_store.h"

namespace lore::app {
namespace {

class AppPagesTest : public testing::AppStoreTest {
 protected:
  void Write(const std::string& rel, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(store_->Path(rel)).parent_path());
    std::ofstream(store_->Path(rel)) << text;
  }
};

TEST_F(AppPagesTest, NoBundleNoPagesNotEvenTheSummary) {
  auto none = ListPages(*store_);
  ASSERT_TRUE(none) << none.error().Format();
  EXPECT_TRUE(none->empty());
  Write("memory/summary.md", "All of it.\n");
  auto still = ListPages(*store_);
  ASSERT_TRUE(still) << still.error().Format();
  EXPECT_TRUE(still->empty());
}

TEST_F(AppPagesTest, ThePlainFilesOfTheBundleWithTheirTitlesThenTheSummary) {
  Write("okf/index.md", "---\ntitle: \"The digest\"  \n---\n# Digest\n");
  Write("okf/cache.md", "---\nkind: page\ntitle: Cache\n---\nbody\n");
  Write("okf/untitled.md", "---\nkind: page\n---\ntitle: in the body\n");
  Write("okf/.hidden.md", "---\ntitle: Hidden\n---\n");
  Write("okf/sub/deep.md", "---\ntitle: Deep\n---\n");
  Write("memory/summary.md", "---\ntitle: Not read\n---\n");
  auto pages = ListPages(*store_);
  ASSERT_TRUE(pages) << pages.error().Format();
  ASSERT_EQ(pages->size(), 4u);
  EXPECT_EQ((*pages)[0].rel, "okf/cache.md");
  EXPECT_EQ((*pages)[0].name, "cache.md");
  EXPECT_EQ((*pages)[0].title, "Cache");
  EXPECT_FALSE((*pages)[0].summary);
  EXPECT_EQ((*pages)[1].rel, "okf/index.md");
  EXPECT_EQ((*pages)[1].title, "The digest");
  // "title:" counts only in the frontmatter.
  EXPECT_EQ((*pages)[2].rel, "okf/untitled.md");
  EXPECT_EQ((*pages)[2].title, "");
  EXPECT_EQ((*pages)[3].rel, "memory/summary.md");
  EXPECT_EQ((*pages)[3].name, "");
  EXPECT_EQ((*pages)[3].title, "");
  EXPECT_TRUE((*pages)[3].summary);
}

TEST_F(AppPagesTest, ABundleThatIsASymlinkIsRefused) {
  Write("elsewhere/page.md", "---\ntitle: Page\n---\n");
  std::filesystem::create_symlink(store_->Path("elsewhere"), store_->okf_dir());
  auto pages = ListPages(*store_);
  ASSERT_FALSE(pages);
  EXPECT_EQ(pages.error().code, ErrorCode::kSymlink);
}

TEST_F(AppPagesTest, APageIsReadByItsRelAndNothingElseIs) {
  Write("okf/index.md", "# Digest\n");
  Write("okf/cache.md", "# Cache\n");
  Write("okf/sub/deep.md", "# Deep\n");
  Write("okf/.hidden.md", "# Hidden\n");
  Write("memory/summary.md", "All of it.\n");
  Write("config.toml", "[memory]\n");
  EXPECT_EQ(*ReadPage(*store_, "okf/index.md"), "# Digest\n");
  EXPECT_EQ(*ReadPage(*store_, "okf/cache.md"), "# Cache\n");
  EXPECT_EQ(*ReadPage(*store_, "memory/summary.md"), "All of it.\n");
  for (const char* rel : {"okf/sub/deep.md", "okf/.hidden.md", "okf/", "config.toml",
                          "okf/../config.toml", "okf/missing.md"}) {
    auto text = ReadPage(*store_, rel);
    ASSERT_FALSE(text) << rel;
    EXPECT_EQ(text.error().code, ErrorCode::kNotFound) << rel;
  }
}

}  // namespace
}  // namespace lore::app
