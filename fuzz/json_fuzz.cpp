// The bounded JSON reader (json/reader.h, json/compact.h). The first byte
// picks the dialect and the depth limit; the rest is the text. Properties:
// Check, Compact, Parse and ParseOrdered agree on what they accept (Parse may
// also refuse a number a double cannot hold); Compact(Compact(x)) ==
// Compact(x); Parse(Compact(x)) equals Parse(x); a compact text holds no
// newline and no raw U+0085, U+2028 or U+2029; Quote reads back as the string.
#include <algorithm>

#include "check.h"
#include "json/compact.h"
#include "lore/json/reader.h"
#include "lore/text/utf8.h"

namespace {

using lore::json::Dialect;

std::string Dump(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool HasRawLineBreak(std::string_view s) {
  return s.find("\xc2\x85") != std::string_view::npos ||
         s.find("\xe2\x80\xa8") != std::string_view::npos ||
         s.find("\xe2\x80\xa9") != std::string_view::npos || s.find('\n') != std::string_view::npos;
}

void CheckText(std::string_view text, const lore::json::Limits& limits) {
  const bool checked = lore::json::Check(text, limits).has_value();
  auto compact = lore::json::Compact(text, limits);
  LORE_FUZZ_CHECK(compact.has_value() == checked);
  auto parsed = lore::json::Parse(text, limits);
  auto ordered = lore::json::ParseOrdered(text, limits);
  LORE_FUZZ_CHECK(parsed.has_value() == ordered.has_value());
  if (parsed) LORE_FUZZ_CHECK(checked);
  if (!compact) return;

  LORE_FUZZ_CHECK(!HasRawLineBreak(*compact));
  LORE_FUZZ_CHECK(compact->size() <= text.size() +
                                         5 * std::count(text.begin(), text.end(), '\xe2') +
                                         4 * std::count(text.begin(), text.end(), '\xc2'));
  auto twice = lore::json::Compact(*compact, limits);
  LORE_FUZZ_CHECK(twice && *twice == *compact);

  auto reparsed = lore::json::Parse(*compact, limits);
  LORE_FUZZ_CHECK(reparsed.has_value() == parsed.has_value());
  if (parsed) LORE_FUZZ_CHECK(Dump(*reparsed) == Dump(*parsed));

  // (In the strict dialect, where no key repeats.)
  auto with = lore::json::CompactObjectWith(text, limits, {{"kind", "\"review\""}});
  if (with && limits.dialect == Dialect::kStrict) {
    LORE_FUZZ_CHECK(with->find('\n') == std::string::npos);
    auto obj = lore::json::ParseOrdered(*with, lore::json::Limits{.dialect = Dialect::kPython});
    LORE_FUZZ_CHECK(obj && obj->is_object() && (*obj)["kind"] == "review");
  }
}

void CheckQuote(std::string_view text) {
  const std::string quoted = lore::json::Quote(text);
  LORE_FUZZ_CHECK(!HasRawLineBreak(quoted));
  auto back = lore::json::Parse(quoted, lore::json::Limits{});
  LORE_FUZZ_CHECK(back && back->is_string() && back->get_ref<const std::string&>() == text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  lore::json::Limits limits;
  limits.dialect = static_cast<Dialect>(data[0] % 3);
  limits.max_depth = (data[0] / 3) % 2 ? lore::json::kMaxDepth : 64;
  std::string_view text = lore::fuzz::Input(data + 1, size - 1);
  CheckText(text, limits);
  if (lore::text::IsValidUtf8(text)) CheckQuote(text);
  return 0;
}
