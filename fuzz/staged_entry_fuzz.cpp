// Staged entries (consolidate/staged_entry.h): any text is either refused with
// an error or parsed; what parses renders to one canonical line that parses
// back to the same entry.
#include "check.h"
#include "lore/consolidate/staged_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = lore::fuzz::Input(data, size);
  auto entry = lore::consolidate::ParseStagedEntry(text, "staging/fuzz.json");
  if (!entry) {
    LORE_FUZZ_CHECK(!entry.error().what.empty());
    return 0;
  }
  const std::string rendered = lore::consolidate::RenderStagedEntry(*entry);
  LORE_FUZZ_CHECK(!rendered.empty() && rendered.back() == '\n');
  LORE_FUZZ_CHECK(rendered.find('\n') == rendered.size() - 1);
  auto again = lore::consolidate::ParseStagedEntry(rendered, "staging/fuzz.json");
  LORE_FUZZ_CHECK(again.has_value());
  LORE_FUZZ_CHECK(lore::consolidate::RenderStagedEntry(*again) == rendered);
  return 0;
}
