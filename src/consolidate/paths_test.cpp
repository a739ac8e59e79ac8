#include "consolidate/paths.h"

#include <gtest/gtest.h>

namespace lore::consolidate {
namespace {

std::string Why(std::string_view p, PathUse use = PathUse::kWrite) {
  auto r = ParseStorePath(p, use);
  return r ? "ok" : r.error().what;
}

TEST(StorePaths, AcceptsRecordPaths) {
  auto d = ParseStorePath("memory/decisions/use-sqlite.md", PathUse::kWrite);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, doc::Kind::kDecision);
  EXPECT_EQ(d->slug, "use-sqlite");
  EXPECT_EQ(Why("memory/summary.md"), "ok");
  EXPECT_EQ(Why("memory/requests/r.md"), "ok");
  EXPECT_EQ(Why("knowledge/k.md"), "ok");
  EXPECT_EQ(Why("memory/workflow/w.md", PathUse::kRead), "ok");
}

TEST(StorePaths, RefusesEscapesAndWorkflow) {
  EXPECT_EQ(Why("/etc/passwd"), "absolute paths are refused: paths are relative to the store");
  EXPECT_EQ(Why("memory/../../x.md"), "'..' is refused: paths must stay inside the store");
  EXPECT_EQ(Why("knowledge/.."), "'..' is refused: paths must stay inside the store");
  EXPECT_EQ(Why("memory/workflow/w.md"), "memory/workflow/ is written by people only");
  EXPECT_EQ(Why("memory//decisions/x.md"), "not a canonical path");
  EXPECT_EQ(Why("./memory/summary.md"), "not a canonical path");
  EXPECT_EQ(Why("memory/decisions/Bad_Slug.md"), "'Bad_Slug' is not a valid slug");
  EXPECT_EQ(Why("memory/decisions/x.txt"), "a record path ends in <slug>.md");
  EXPECT_EQ(Why("raw.jsonl"), "not a record path of memory/ or knowledge/");
  EXPECT_EQ(Why("staging/x.json"), "not a record path of memory/ or knowledge/");
  EXPECT_EQ(Why(""), "empty path");
}

}  // namespace
}  // namespace lore::consolidate
