#include "text/id_match.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lore::text {
namespace {

IdMatch Match(const std::vector<std::string>& ids, std::string_view want) {
  return MatchId(
      ids.size(), [&](size_t k) -> std::string_view { return ids[k]; }, want);
}

TEST(IdMatch, WholeIdOrAUniquePrefixOfFourOrMore) {
  const std::vector<std::string> ids = {"abcd1234", "abce5678", "", "abcd9999"};
  EXPECT_EQ(Match(ids, "abce5678").one(), 1u);
  EXPECT_EQ(Match(ids, "abce").one(), 1u);
  EXPECT_EQ(Match(ids, "abc").one(), std::nullopt);   // too short
  EXPECT_EQ(Match(ids, "abcd").prefixed.size(), 2u);  // not unique
  EXPECT_EQ(Match(ids, "abcd").one(), std::nullopt);
  EXPECT_EQ(Match(ids, "zzzz").one(), std::nullopt);
  EXPECT_EQ(Match(ids, "").one(), std::nullopt);  // an empty id names nothing
}

}  // namespace
}  // namespace lore::text
