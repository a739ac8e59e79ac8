// Frontmatter and records (doc/): splitting, parsing with yaml-cpp, and lore's
// own emitter. For a record that parses, the emitted form parses back to the
// same fields and body: parse(emit(parse(x))) == parse(x); cleaned of
// secrets (doc::CleanRecord), it still parses. The first byte picks the
// record's kind.
#include "check.h"
#include "doc/frontmatter.h"
#include "doc/yaml_emit.h"
#include "doc/yaml_value.h"
#include "lore/doc/record.h"
#include "lore/text/utf8.h"

namespace {

using lore::doc::Kind;

// What RenderRecord writes for a record whose fields changed.
std::string Emit(const lore::doc::Record& r) {
  return "---\n" + r.preamble + lore::doc::EmitFields(r.fields) + "---\n" + r.body;
}

// The input as a key and a value given to SetFieldText (split at its first tab): refused only
// for a key the parser could not read back or a value of more than one line; else the emitted
// record reads back with exactly that value, invalid UTF-8 replaced by U+FFFD (the emitter's one
// cleaning; src/doc/record_property_test.cpp holds the same property over generated records).
void CheckSetText(Kind kind, std::string_view input) {
  const size_t tab = input.find('\t');
  if (tab == std::string_view::npos) return;
  const std::string_view key = input.substr(0, tab), value = input.substr(tab + 1);
  lore::doc::Record r = lore::doc::NewRecord(kind, lore::text::TimePoint{});
  const bool known = lore::doc::IsKnownKey(kind, key);
  const bool settable = lore::doc::detail::IsKeyName(key) && lore::doc::IsTextKey(kind, key) &&
                        value.find_first_of("\r\n") == std::string_view::npos;
  const bool set = static_cast<bool>(lore::doc::SetFieldText(r, key, value));
  // A known key also checks its value (a time, a status): only the others must always be taken.
  LORE_FUZZ_CHECK(set == settable || (known && !set));
  if (!set) return;
  const std::string want = lore::text::ReplaceInvalidUtf8(value);
  auto again = lore::doc::ParseRecord(kind, Emit(r), "fuzz.md");
  LORE_FUZZ_CHECK(again.has_value());
  LORE_FUZZ_CHECK(again->issues.empty());
  if (known) {
    const auto* slot = lore::doc::TextValue(again->fields, key);
    LORE_FUZZ_CHECK(slot && *slot && **slot == want);
    return;
  }
  LORE_FUZZ_CHECK(again->fields.extra.size() == 1 && again->fields.extra[0].key == key);
  auto node = lore::doc::detail::LoadYaml(again->fields.extra[0].text, "", 1);
  LORE_FUZZ_CHECK(node && node->IsMap() && node->size() == 1);
  const YAML::Node v = node->begin()->second;
  LORE_FUZZ_CHECK(v.IsScalar() && v.Scalar() == want);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Kind kind = lore::doc::kAllKinds[data[0] % lore::doc::kKindCount];
  std::string_view text = lore::fuzz::Input(data + 1, size - 1);
  CheckSetText(kind, text);

  auto split = lore::doc::SplitFrontmatter(text, "fuzz.md");
  if (split) {
    // Both parts are views into the text (an empty body may be a null view).
    LORE_FUZZ_CHECK(split->yaml.empty() ||
                    (split->yaml.data() >= text.data() &&
                     split->yaml.data() + split->yaml.size() <= text.data() + text.size()));
    LORE_FUZZ_CHECK(split->body.empty() ||
                    split->body.data() + split->body.size() == text.data() + text.size());
    (void)lore::doc::HasContent(split->body);
  }
  auto rec = lore::doc::ParseRecord(kind, text, "fuzz.md");
  if (!rec) return 0;
  LORE_FUZZ_CHECK(split.has_value());
  // Unchanged fields render the file's own bytes.
  LORE_FUZZ_CHECK(lore::doc::RenderRecord(*rec) == text);

  const std::string emitted = Emit(*rec);
  auto again = lore::doc::ParseRecord(kind, emitted, "fuzz.md");
  LORE_FUZZ_CHECK(again.has_value());
  LORE_FUZZ_CHECK(again->fields == rec->fields);
  LORE_FUZZ_CHECK(again->body == rec->body);
  // And the emitter is stable from there on.
  LORE_FUZZ_CHECK(Emit(*again) == emitted);

  // What every writer does before the linter (issue 38): cleaning the
  // frontmatter and the body never makes a record that does not parse, and
  // a record it leaves alone keeps its bytes.
  lore::doc::Record cleaned = *rec;
  if (!lore::doc::CleanRecord(cleaned)) {
    LORE_FUZZ_CHECK(lore::doc::RenderRecord(cleaned) == text);
  } else {
    LORE_FUZZ_CHECK(lore::doc::ParseRecord(kind, lore::doc::RenderRecord(cleaned), "fuzz.md"));
  }
  return 0;
}
