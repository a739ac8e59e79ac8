#include <gtest/gtest.h>

#include "text/hash.h"
#include "text/lines.h"

#include "lore/text/edit_distance.h"
#include "lore/text/time.h"
#include "lore/text/utf8.h"
#include "text/table.h"
#include "text/trim.h"

namespace lore::text {
namespace {

TEST(Utf8, AcceptsValidAndRejectsInvalid) {
  EXPECT_TRUE(IsValidUtf8("plain ascii that is longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("日本語 ünï 🎉"));
  size_t bad = 0;
  EXPECT_FALSE(IsValidUtf8("abc\xff", &bad));
  EXPECT_EQ(bad, 3u);
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe6\x97"));          // cut off
}

TEST(Utf8, CountsAndPrefixes) {
  EXPECT_EQ(CodePointCount("añb"), 3u);
  EXPECT_EQ(PrefixCodePoints("añbc", 2), "añ");
  EXPECT_EQ(PrefixCodePoints("ab", 5), "ab");
}

TEST(Trim, FieldsAreTheRunsBetweenSeparators) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(Fields("a  b\tc"), (V{"a", "b", "c"}));
  EXPECT_EQ(Fields("  "), V{});
  EXPECT_EQ(Fields("(src/a.rs:3), x", " (),"), (V{"src/a.rs:3", "x"}));
}

TEST(Time, FormatsAndParses) {
  auto t = ParseIso("2026-11-30T15:23:25.123Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(UtcMillis(*t), "2026-11-30T15:23:25.123Z");
  EXPECT_EQ(UtcSeconds(*t), "2026-11-30T15:23:25Z");
  EXPECT_EQ(UtcDate(*t), "2026-11-30");
  auto z = ParseIso("2026-11-30T17:23:25+02:00");
  ASSERT_TRUE(z);
  EXPECT_EQ(UtcSeconds(*z), "2026-11-30T15:23:25Z");
  EXPECT_TRUE(ParseIso("2026-02-28"));
  EXPECT_FALSE(ParseIso("2026-02-30"));
  EXPECT_FALSE(ParseIso("yesterday"));
  EXPECT_FALSE(ParseIso("2026-11-30T15:23:25Zjunk"));
}

// Found by fuzz/proposal_fuzz.cpp (a queue line with created_at in the year
// 433): the conversion to nanoseconds overflowed (undefined behaviour).
TEST(Time, RefusesYearsATimePointCannotHold) {
  EXPECT_FALSE(ParseIso("0433-01-02T03:04:05.678Z"));
  EXPECT_FALSE(ParseIso("0000-01-01"));
  EXPECT_FALSE(ParseIso("1677-09-21T00:00:00Z"));
  EXPECT_FALSE(ParseIso("2262-04-12T00:00:00Z"));
  EXPECT_FALSE(ParseIso("9999-12-31T23:59:59.999999999+00:00"));
  auto early = ParseIso("1678-01-01T00:00:00Z");
  ASSERT_TRUE(early);
  EXPECT_EQ(UtcSeconds(*early), "1678-01-01T00:00:00Z");
  auto late = ParseIso("2262-04-11T00:00:00.5Z");
  ASSERT_TRUE(late);
  EXPECT_EQ(UtcMillis(*late), "2262-04-11T00:00:00.500Z");
}

TEST(Table, FindsEveryLineByItsKey) {
  const std::string_view table = "ate\teat\nbought\tbuy\nkey-only\nwent\tgo";
  EXPECT_EQ(FindTableLine(table, "ate"), "ate\teat");
  EXPECT_EQ(FindTableLine(table, "bought"), "bought\tbuy");
  EXPECT_EQ(FindTableLine(table, "key-only"), "key-only");
  EXPECT_EQ(FindTableLine(table, "went"), "went\tgo");  // the last line, without a newline
  for (std::string_view missing : {"", "a", "atf", "boug", "zzz", "eat", "buy"}) {
    EXPECT_EQ(FindTableLine(table, missing), "") << missing;
  }
  EXPECT_EQ(FindTableLine("", "ate"), "");
  EXPECT_EQ(FindTableLine("only\n", "only"), "only");
  // Every key of a larger table is found, wherever the search lands in its line.
  auto line = [](int i) {
    std::string l(1, 'k');
    l.append(std::to_string(i)).append("\tv").append(std::to_string(i));
    return l;
  };
  std::string big;
  for (int i = 100; i < 1000; ++i) big.append(line(i)).append("\n");
  for (int i = 100; i < 1000; ++i) {
    std::string l = line(i);
    EXPECT_EQ(FindTableLine(big, l.substr(0, l.find('\t'))), l);
  }
  EXPECT_EQ(FindTableLine(big, "k1000"), "");
}

TEST(Trim, EndsAndLineBreaks) {
  EXPECT_EQ(Trim("  a b \n"), "a b");
  EXPECT_EQ(TrimEnd("  a\r\n\n"), "  a");
  EXPECT_EQ(TrimEnd("{\"a\": 1} \r\n", "\r\n"), "{\"a\": 1} ");
  EXPECT_EQ(TrimEnd("\r\n", "\r\n"), "");
}

TEST(Trim, FoldSpaceMakesOneLine) {
  EXPECT_EQ(FoldSpace("  a \t\n b\r\n"), "a b");
  EXPECT_EQ(FoldSpace("a\fb", SIZE_MAX, " \t\r\n"), "a\fb");
  EXPECT_EQ(FoldSpace("a\fb"), "a b");
  EXPECT_EQ(FoldSpace("abcdef", 3), "abcd");  // stops once longer than 3
}

TEST(EditDistance, Basics) {
  EXPECT_EQ(EditDistance("ensure", "ensure"), 0u);
  EXPECT_EQ(EditDistance("ensur", "ensure"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("abc", "xyzxyzxyz", 2), 3u);
}

}  // namespace
}  // namespace lore::text

namespace lore::text {
namespace {

TEST(Hash, Fnv1a64KnownValuesAndHex) {
  // lore's offset basis (kFnvOffset) is not FNV's 14695981039346656037: the
  // values below are the ones stored, and must never change.
  EXPECT_EQ(Fnv1a64(""), 0x14650fb0739d0383ULL);
  EXPECT_EQ(Fnv1a64("a"), 0x44bd8ad473cd9906ULL);
  EXPECT_EQ(Fnv1a64("foobar"), 0x88fad7c0a8ff07f2ULL);
  EXPECT_EQ(Fnv1a64("bar", Fnv1a64("foo")), Fnv1a64("foobar")) << "continues from h";
  EXPECT_EQ(Hex(0x44bd8ad473cd9906ULL), "44bd8ad473cd9906");
  EXPECT_EQ(Hex(0x1234, 8), "00001234");
  EXPECT_EQ(Hex(0x44bd8ad473cd9906ULL, 8), "73cd9906") << "the last digits";
}

std::vector<std::string> AllLines(std::string_view s, bool empty_last) {
  std::vector<std::string> out;
  for (std::string_view line : text::Lines(s, empty_last)) out.emplace_back(line);
  return out;
}

TEST(Lines, SplitsAtEachNewlineAndKeepsCarriageReturns) {
  using V = std::vector<std::string>;
  EXPECT_EQ(AllLines("", false), V{});
  EXPECT_EQ(AllLines("a", false), V{"a"});
  EXPECT_EQ(AllLines("a\n", false), V{"a"});
  EXPECT_EQ(AllLines("a\r\n\nb", false), (V{"a\r", "", "b"}));
  EXPECT_EQ(AllLines("\n", false), V{""});
  // With the piece after the last newline, even empty.
  EXPECT_EQ(AllLines("", true), V{""});
  EXPECT_EQ(AllLines("a", true), V{"a"});
  EXPECT_EQ(AllLines("a\n", true), (V{"a", ""}));
  EXPECT_EQ(AllLines("\n\n", true), (V{"", "", ""}));
}

}  // namespace
}  // namespace lore::text
