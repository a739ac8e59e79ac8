#include "lore/app/propose.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace lore::app {
namespace {

TEST(AppPropose, TheTypesAProposalMayHave) {
  const auto& types = ProposalTypes();
  EXPECT_EQ(&types, &ProposalTypes());
  // In the order `lore propose --help` lists them.
  ASSERT_EQ(types.size(), 13u);
  EXPECT_EQ(types.front(), "mode-selector-accuracy");
  EXPECT_EQ(types.back(), "design-pattern");
  for (std::string_view t : {"convention", "anti-pattern"})
    EXPECT_NE(std::find(types.begin(), types.end(), t), types.end()) << t;
  EXPECT_EQ(std::find(types.begin(), types.end(), "learning"), types.end());
  EXPECT_EQ(std::adjacent_find(types.begin(), types.end()), types.end());
}

}  // namespace
}  // namespace lore::app
