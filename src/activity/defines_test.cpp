#include "activity/defines.h"

#include <gtest/gtest.h>

namespace lore::activity {
namespace {

TEST(DefinedNames, FunctionsClassesAndTestsOfTheCommonLanguages) {
  EXPECT_EQ(DefinedNames("src/gridcast/ingest.py",
                         "RETRYABLE = {429, 500}\n\n"
                         "class EiaApiError(RuntimeError):\n    pass\n\n"
                         "def get_page(client, params):\n    # Retry with backoff\n"
                         "    return retry_delay(1)\n\n"
                         "async def fetch_all():\n    pass\n",
                         400),
            "EiaApiError, get_page, fetch_all");
  EXPECT_EQ(DefinedNames("src/time.rs",
                         "pub fn to_local(t: DateTime<Utc>) -> NaiveDateTime {\n}\n"
                         "impl<T> Cache<T> {\n#[cfg(test)]\nmod tests {\n"
                         "    #[test]\n    fn fall_back_hour_maps_to_pst() {}\n}\n",
                         400),
            "to_local, Cache, tests, fall_back_hour_maps_to_pst");
  EXPECT_EQ(DefinedNames("internal/relay/store.go",
                         "func (s *Store) ScheduleRetry(ctx context.Context) error {\n"
                         "type Delivery struct {\nfunc backoff(n int) time.Duration {\n",
                         400),
            "ScheduleRetry, Delivery, backoff");
  EXPECT_EQ(DefinedNames("apps/web/src/lib/geo.ts",
                         "export function formatCoordinates(p: Point) {\n"
                         "export const parseLocation = (s: string) => {}\n"
                         "const helper = 3;\nconst toRad = (d: number) => d;\n"
                         "describe('formatCoordinates', () => {\n"
                         "  it(\"formats southern and western hemispheres\", () => {\n",
                         400),
            "formatCoordinates, parseLocation, toRad, formats southern and western hemispheres");
  EXPECT_EQ(DefinedNames("test/ledgerly/money_test.exs",
                         "defmodule Ledgerly.MoneyTest do\n  test \"allocate/2 sums to the total\" "
                         "do\n  defp cents(x), do: x\n",
                         400),
            "Ledgerly.MoneyTest, allocate/2 sums to the total, cents");
  EXPECT_EQ(DefinedNames("test/host/test_battery.cpp",
                         "#define CURVE_POINTS 11\nTEST(Battery, PercentAtFullCharge) {\n"
                         "TEST_F(GateTest, SkipsBelowThreshold) {\n",
                         400),
            "CURVE_POINTS, Battery.PercentAtFullCharge, GateTest.SkipsBelowThreshold");
}

TEST(DefinedNames, TablesVariablesAndHeadings) {
  EXPECT_EQ(DefinedNames("migrations/2026_next_attempt.sql",
                         "ALTER TABLE deliveries ADD COLUMN next_attempt_at timestamptz;\n"
                         "CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_due_idx ON x;\n"
                         "create table photos (id int);\n",
                         400),
            "next_attempt_at, deliveries_due_idx, photos");
  // A Markdown file's headings and the variables of its fenced blocks; a
  // prose line starting with a keyword defines nothing.
  EXPECT_EQ(DefinedNames("docs/storage.md",
                         "# Photo storage\n\nclass names are stable.\n\n## Environment\n\n"
                         "- `R2_ACCESS_KEY_ID`, `R2_SECRET_ACCESS_KEY` (scoped), `fieldnotes`\n"
                         "```sh\n# a comment, not a heading\nR2_ACCOUNT_ID=abc\n"
                         "export R2_BUCKET=fieldnotes-photos\n```\n",
                         400),
            "Photo storage, Environment, R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY, R2_ACCOUNT_ID, "
            "R2_BUCKET");
  // A Python comment at a line's start is no heading.
  EXPECT_EQ(DefinedNames("a.py", "# Setup\nx = 1\n", 400), "");
  EXPECT_EQ(DefinedNames("a.txt", "", 400), "");
}

TEST(DefinedNames, BoundedAndEachOnce) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "def f" + std::to_string(i % 30) + "():\n";
  std::string names = DefinedNames("a.py", text, 60);
  EXPECT_LE(names.size(), 60u);
  EXPECT_EQ(names.find("f0, f1, f2"), 0u);
  EXPECT_EQ(DefinedNames("a.py", "def f0():\ndef f0():\n", 100), "f0");
}

}  // namespace
}  // namespace lore::activity
