#include "lore/sys/uuid.h"

#include <gtest/gtest.h>

#include <set>

namespace lore::sys {
namespace {

using TimePoint = std::chrono::system_clock::time_point;

TEST(UuidV4, CanonicalRandomAndOfVersionFour) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string id = NewUuidV4();
    ASSERT_TRUE(IsUuidV4(id)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_TRUE(IsUuidV4("2BC5D48F-E3BA-4C4E-B9A0-107600F8E090"));   // other tools' upper case
  EXPECT_FALSE(IsUuidV4("2bc5d48f-e3ba-1c4e-b9a0-107600f8e090"));  // version 1
  EXPECT_FALSE(IsUuidV4("2bc5d48f-e3ba-4c4e-c9a0-107600f8e090"));  // wrong variant
  EXPECT_FALSE(IsUuidV4("2bc5d48fe3ba4c4eb9a0107600f8e090"));
}

TEST(UuidV7, CanonicalFormWithVersionAndVariant) {
  // Later than any id this process made before (ids never go back in time).
  auto t = std::chrono::time_point_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now() + std::chrono::seconds(2));
  std::string id = NewUuidV7(t);
  ASSERT_EQ(id.size(), 36u);
  EXPECT_TRUE(IsUuidV7(id)) << id;
  EXPECT_EQ(id[14], '7');
  EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos);
  EXPECT_EQ(UuidV7Time(id), t);
}

TEST(UuidV7, SortsByTimeAndStaysMonotonicWithinAMillisecond) {
  auto t = TimePoint(std::chrono::milliseconds(1764515000000LL));
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
}  // namespace lore::sys
