#include "lore/consolidate/uuid.h"

#include <gtest/gtest.h>

#include <set>

namespace lore::consolidate {
namespace {

TEST(UuidV7, CanonicalFormWithVersionAndVariant) {
  auto t = text::TimePoint(std::chrono::milliseconds(1764515000123LL));
  std::string id = NewUuidV7(t);
  ASSERT_EQ(id.size(), 36u);
  EXPECT_TRUE(IsUuidV7(id)) << id;
  EXPECT_EQ(id[14], '7');
  EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos);
  EXPECT_EQ(UuidV7Time(id), t);
}

TEST(UuidV7, SortsByTimeAndStaysMonotonicWithinAMillisecond) {
  auto t = text::TimePoint(std::chrono::milliseconds(1764515000000LL));
  std::vector<std::string> ids;
  for (int i = 0; i < 5000; ++i) ids.push_back(NewUuidV7(t));
  ids.push_back(NewUuidV7(t + std::chrono::seconds(1)));
  for (size_t i = 1; i < ids.size(); ++i) EXPECT_LT(ids[i - 1], ids[i]) << i;
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
}

TEST(UuidV7, RejectsOtherShapes) {
  EXPECT_FALSE(IsUuidV7(""));
  EXPECT_FALSE(IsUuidV7("01a22d2a-f5dc-40d4-94d7-4eba277267d9"));  // version 4
  EXPECT_FALSE(IsUuidV7("01A22D2A-F5DC-70D4-94D7-4EBA277267D9"));  // upper case
  EXPECT_FALSE(IsUuidV7("01a22d2a-f5dc-70d4-c4d7-4eba277267d9"));  // variant
  EXPECT_FALSE(IsUuidV7("01a22d2af5dc70d494d74eba277267d9"));
  EXPECT_TRUE(IsUuidV7("01a22d2a-f5dc-70d4-94d7-4eba277267d9"));
  EXPECT_EQ(UuidV7Time("nope"), std::nullopt);
}

}  // namespace
}  // namespace lore::consolidate
