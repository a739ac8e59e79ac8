#include "lore/store/layout.h"

#include <gtest/gtest.h>

#include "lore/store/store.h"

namespace lore::store {
namespace {

// The accessors name the files of docs/formats.md, inside the store's folder.
TEST(StoreLayoutTest, AccessorsNameTheStoresFiles) {
  Store s = Store::AtDir("/stores", "github.com_acme_widgets");
  const std::string d = "/stores/github.com_acme_widgets/";
  EXPECT_EQ(s.dir() + "/", d);
  EXPECT_EQ(s.config_path(), d + "config.toml");
  EXPECT_EQ(s.raw_path(), d + "raw.jsonl");
  EXPECT_EQ(s.learnings_path(), d + "learnings.jsonl");
  EXPECT_EQ(s.proposals_path(), d + "proposals.jsonl");
  EXPECT_EQ(s.events_path(), d + "events.jsonl");
  EXPECT_EQ(s.index_path(), d + "okf/index.md");
  EXPECT_EQ(s.okf_dir(), d + "okf");
}

}  // namespace
}  // namespace lore::store
