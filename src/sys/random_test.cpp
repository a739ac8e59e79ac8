#include "lore/sys/random.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace lore::sys {
namespace {

TEST(Random, DrawsDiffer) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(Random64());
  EXPECT_EQ(seen.size(), 1000u);
  unsigned char a[33] = {}, b[33] = {};
  RandomBytes(a, sizeof a);
  RandomBytes(b, sizeof b);
  EXPECT_NE(std::string(a, a + 33), std::string(b, b + 33));
}

}  // namespace
}  // namespace lore::sys
