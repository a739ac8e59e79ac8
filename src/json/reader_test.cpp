#include "lore/json/reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "json/compact.h"
#include "lore/json/field.h"
#include "lore/json/value.h"

namespace lore::json {
namespace {

Limits Python() {
  Limits l;
  l.dialect = Dialect::kPython;
  return l;
}

TEST(JsonReader, ParsesObjectsInOrder) {
  auto j = ParseOrdered(R"( {"b":1,"a":[true,false,null,"x\n\u00e9"],"c":{"d":-2.5}} )", {});
  ASSERT_TRUE(j) << j.error().Format();
  EXPECT_EQ(j->dump(), R"({"b":1,"a":[true,false,null,"x\né"],"c":{"d":-2.5}})");
}

// The scanner skips plain ASCII eight bytes at a time: a quote, a backslash,
// a control character or a non-ASCII byte at every offset of a long string
// must still be seen, and escapes decoded wherever they fall.
TEST(JsonReader, StringsAreScannedRightAtEveryOffset) {
  for (size_t at = 0; at < 24; ++at) {
    std::string plain(at, 'a');
    std::string tail(23 - at, 'z');
    auto escaped = Parse("\"" + plain + "\\n\\u00e9\\\"" + tail + "\"", {});
    ASSERT_TRUE(escaped) << at;
    EXPECT_EQ(escaped->get<std::string>(), plain + "\n\u00e9\"" + tail) << at;
    auto utf8 = Parse("\"" + plain + "\xC3\xA9" + tail + "\"", {});
    ASSERT_TRUE(utf8) << at;
    EXPECT_EQ(utf8->get<std::string>(), plain + "\xC3\xA9" + tail) << at;
    EXPECT_FALSE(Parse("\"" + plain + "\xC3" + tail + "\"", {})) << at;  // invalid UTF-8
    EXPECT_FALSE(Parse("\"" + plain + "\x01" + tail + "\"", {})) << at;  // a control byte
    EXPECT_FALSE(Parse("\"" + plain + tail, {})) << at;                  // never closed
    auto inner = Parse("[\"" + plain + "\",\"" + tail + "\"]", {});      // the first quote ends it
    ASSERT_TRUE(inner) << at;
    EXPECT_EQ((*inner)[0].get<std::string>(), plain) << at;
  }
}

TEST(JsonReader, DeepNestingIsRefusedWithoutRecursion) {
  std::string deep(150000, '[');
  auto r = Check(deep, Limits{size_t{1} << 20, 64});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("nested deeper than 64"), std::string::npos);
  std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_TRUE(Check(ok, Limits{size_t{1} << 20, 64}));
  EXPECT_FALSE(Check(std::string(65, '[') + std::string(65, ']'), Limits{size_t{1} << 20, 64}));
}

TEST(JsonReader, DepthOfParseNeverExceedsTheHardCap) {
  Limits l;
  l.max_depth = 100000;
  std::string deep = std::string(600, '[') + std::string(600, ']');
  EXPECT_FALSE(Parse(deep, l));
  EXPECT_TRUE(Check(deep, l));  // Check builds nothing, so it may go deeper
}

TEST(JsonReader, SizeLimit) {
  Limits l;
  l.max_bytes = 10;
  auto r = Check(R"({"a":"0123456789"})", l);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("over the limit of 10"), std::string::npos);
}

TEST(JsonReader, OutOfRangeNumbers) {
  auto strict = Parse(R"({"a":1e400})", {});
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().what.find("out of range"), std::string::npos);
  EXPECT_TRUE(Check(R"({"a":1e400})", {}));  // the grammar allows it
  auto py = Parse(R"({"a":1e400,"b":-1e400,"c":1e-400})", Python());
  ASSERT_TRUE(py);
  EXPECT_TRUE(std::isinf((*py)["a"].get<double>()));
  EXPECT_LT((*py)["b"].get<double>(), 0);
  EXPECT_EQ((*py)["c"].get<double>(), 0.0);
  // Integers beyond 64 bits are read as doubles, as nlohmann does.
  auto big = Parse("123456789012345678901234567890", {});
  ASSERT_TRUE(big);
  EXPECT_TRUE(big->is_number_float());
  auto u = Parse("18446744073709551615", {});
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->is_number_unsigned());
}

TEST(JsonReader, NumberLengthLimit) {
  Limits l;
  l.max_number_chars = 20;
  EXPECT_TRUE(Check("12345678901234567890", l));
  EXPECT_FALSE(Check("123456789012345678901", l));
}

TEST(JsonReader, PythonLiterals) {
  EXPECT_FALSE(Check(R"({"a":NaN})", {}));
  auto j = Parse(R"([NaN,Infinity,-Infinity])", Python());
  ASSERT_TRUE(j);
  EXPECT_TRUE(std::isnan((*j)[0].get<double>()));
  EXPECT_TRUE(std::isinf((*j)[1].get<double>()));
  EXPECT_LT((*j)[2].get<double>(), 0);
  EXPECT_FALSE(Check("[-Inf]", Python()));
  EXPECT_FALSE(Check("[nan]", Python()));
}

TEST(JsonReader, Surrogates) {
  EXPECT_TRUE(Check(R"("\ud83d\ude00")", {}));
  EXPECT_FALSE(Check(R"("\ud83d")", {}));
  EXPECT_FALSE(Check(R"("\ude00\ud83d")", {}));
  auto j = Parse(R"(["\ud83d\ude00","\ud800x"])", Python());
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)[0].get<std::string>(), "\xF0\x9F\x98\x80");
  EXPECT_EQ((*j)[1].get<std::string>(), "\xEF\xBF\xBDx");
}

TEST(JsonReader, DuplicateKeys) {
  auto r = Check(R"({"a":1,"b":{"a":2},"a":3})", {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("duplicate key \"a\""), std::string::npos);
  // An escaped spelling is the same key.
  EXPECT_FALSE(Check(R"({"a":1,"\u0061":2})", {}));
  // Nested objects have their own keys; siblings reuse names freely.
  EXPECT_TRUE(Check(R"([{"a":1},{"a":2}])", {}));
  std::string many = "{";
  for (int i = 0; i < 100; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  EXPECT_TRUE(Check(many + "}", {}));
  EXPECT_FALSE(Check(many + ",\"k77\":1}", {}));
  auto py = ParseOrdered(R"({"a":1,"b":2,"a":3})", Python());
  ASSERT_TRUE(py);
  EXPECT_EQ(py->dump(), R"({"a":3,"b":2})");  // Python: last value, first position
}

// Found by the staged-entry fuzzer: escaped keys in objects opened one inside
// the other, deep enough that the per-level key sets grow (they must never
// move, their views point into their own strings).
TEST(JsonReader, EscapedKeysInNestedObjects) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "{\"k\\u0000" + std::to_string(i) + "\":";
  text += "1";
  for (int i = 0; i < 40; ++i) text += ",\"k\\u0000x\":2}";
  EXPECT_TRUE(Check(text, {}));
  EXPECT_FALSE(Check("{\"a\\u0000\":{\"b\":{\"c\":1}},\"a\\u0000\":2}", {}));
}

TEST(JsonReader, RefusesWhatTheGrammarRefuses) {
  for (const char* bad :
       {"",    " ",   "{",     "[1,]",  "{\"a\":1,}", "01",    "1.",       ".5",      "1e",
        "+1",  "-",   "tru",   "[1 2]", "{\"a\" 1}",  "{1:2}", "\"a\tb\"", "\"\\x\"", "\"\\u12g4\"",
        "1 2", "[]]", "\"abc", "'a'",   "{\"a\":1}x", "\xff"}) {
    EXPECT_FALSE(Check(bad, {})) << bad;
  }
  EXPECT_FALSE(Check("\"\xC0\xAF\"", {}));      // overlong
  EXPECT_FALSE(Check("\"\xED\xA0\x80\"", {}));  // an encoded surrogate
  for (const char* good : {"0", "-0", "1.5e-3", "1E+2", "\"\"", "[]", "{}", " [ 1 , { } ] ",
                           "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\xE2\x82\xAC\""}) {
    EXPECT_TRUE(Check(good, {})) << good;
  }
}

TEST(JsonReader, ErrorsNameTheLine) {
  Source src{"<stdin>", 1, "send one JSON object"};
  auto r = Check("{\n\"a\": 1,\n\"b\": x\n}", {}, src);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "<stdin>");
  EXPECT_EQ(r.error().line, 3);
  EXPECT_EQ(r.error().repair, "send one JSON object");
  Source log{"raw.jsonl", 41, ""};
  auto l = Check("[1,", {}, log);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().line, 41);
}

TEST(JsonCompact, KeepsTheCallersBytes) {
  auto c = Compact(R"( { "n" : 123456789012345678901234567890 , "f": 1.50E+3,
      "s" : "caf\u00e9 \/ é", "a" : [ 1 , 2 ] } )",
                   {});
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(*c,
            R"({"n":123456789012345678901234567890,"f":1.50E+3,"s":"caf\u00e9 \/ é","a":[1,2]})");
}

TEST(JsonCompact, EscapesLineBreakingCodePoints) {
  auto c = Compact(
      "\"a\xE2\x80\xA8"
      "b\xE2\x80\xA9"
      "c\xC2\x85"
      "d\xE2\x80\xA7\"",
      {});
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, "\"a\\u2028b\\u2029c\\u0085d\xE2\x80\xA7\"");
  EXPECT_EQ(Quote("x\xE2\x80\xA8y\n\x01\""), "\"x\\u2028y\\n\\u0001\\\"\"");
}

TEST(JsonCompact, SetsMembersInPlaceOrAtTheEnd) {
  std::vector<Member> m = {{"kind", "\"review\""}, {"recorded_at", "\"2026-01-01T00:00:00Z\""}};
  auto a = CompactObjectWith(R"({"kind":{"deep":[1,{"x":2}]},"z":1})", {}, m);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, R"({"kind":"review","z":1,"recorded_at":"2026-01-01T00:00:00Z"})");
  auto b = CompactObjectWith("{}", {}, m);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, R"({"kind":"review","recorded_at":"2026-01-01T00:00:00Z"})");
  auto c = CompactObjectWith(R"({"a":{"kind":1},"recorded_at":5,"kind":"x"})", {}, m);
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, R"({"a":{"kind":1},"recorded_at":"2026-01-01T00:00:00Z","kind":"review"})");
  EXPECT_FALSE(CompactObjectWith("[1]", {}, m));
  auto d = CompactObjectWith(R"({"a":1e400})", {}, m);
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, R"({"a":1e400,"kind":"review","recorded_at":"2026-01-01T00:00:00Z"})");
}

TEST(JsonField, Accessors) {
  auto j = ParseOrdered(R"({"s":"x","i":3,"f":3.0,"h":3.5,"big":1e300,"u":18446744073709551615,
                          "neg":-4,"b":true,"n":null})",
                        {});
  ASSERT_TRUE(j);
  EXPECT_EQ(String(*j, "s"), "x");
  EXPECT_EQ(String(*j, "i"), std::nullopt);
  EXPECT_EQ(StringOr(*j, "missing", "d"), "d");
  EXPECT_EQ(Int(*j, "i"), 3);
  EXPECT_EQ(Int(*j, "f"), 3);
  EXPECT_EQ(Int(*j, "h"), std::nullopt);
  EXPECT_EQ(Int(*j, "big"), std::nullopt);
  EXPECT_EQ(Int(*j, "u"), std::nullopt);
  EXPECT_EQ(Int(*j, "neg", 0, 10), std::nullopt);
  EXPECT_EQ(Int(*j, "s"), std::nullopt);
  EXPECT_EQ(Bool(*j, "b"), true);
  EXPECT_EQ(Number(*j, "i"), 3.0);
  EXPECT_EQ(Find(*j, "n")->is_null(), true);
  Json arr = Json::array();
  EXPECT_EQ(Find(arr, "x"), nullptr);
  EXPECT_EQ(ClampToInt(1e300, 0, 100), 100);
  EXPECT_EQ(ClampToInt(-1e300, 0, 100), 0);
  EXPECT_EQ(ClampToInt(std::nan(""), 1, 100), 1);
  EXPECT_EQ(ClampToInt(9.3e18, INT64_MIN, INT64_MAX), INT64_MAX);
  EXPECT_EQ(ClampToInt(42.9, 0, 100), 42);
}

}  // namespace
}  // namespace lore::json
