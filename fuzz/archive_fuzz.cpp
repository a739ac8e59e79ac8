// Archive manifests and entry paths (archive/unpack.h, internal to the
// library). The first byte picks the check; the rest is the manifest text or
// the entry path.
// Property: an accepted entry path below store/ is plain: no empty, '.', '..'
// or hidden component, no control character, part of a store's truth, or
// machine-local and skipped.
#include "archive/unpack.h"
#include "lore/archive/archive.h"
#include "lore/text/utf8.h"

#include "check.h"

namespace {

void CheckEntryPath(std::string_view path) {
  auto entry = lore::archive::CheckPath(path, "fuzz.tar.gz");
  if (!entry) return;
  if (entry->manifest) {
    LORE_FUZZ_CHECK(path == "manifest.json");
    return;
  }
  if (entry->root) {
    LORE_FUZZ_CHECK(path == "store" || path == "store/");
    return;
  }
  const std::string& rel = entry->rel;
  LORE_FUZZ_CHECK(!rel.empty() && rel.front() != '/' && rel.back() != '/');
  for (unsigned char c : rel) LORE_FUZZ_CHECK(c >= 0x20 && c != 0x7f);
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    std::string_view part(rel.data() + start, end - start);
    LORE_FUZZ_CHECK(!part.empty() && part.front() != '.');
    start = end + 1;
  }
  LORE_FUZZ_CHECK(entry->skip ? lore::archive::IsMachineLocal(rel) : lore::archive::IsTruth(rel));
  LORE_FUZZ_CHECK(lore::text::IsValidUtf8(rel));
}

void CheckManifest(std::string_view text) {
  auto m = lore::archive::ParseManifest(text, "fuzz.tar.gz");
  if (!m) LORE_FUZZ_CHECK(!m.error().what.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view rest = lore::fuzz::Input(data + 1, size - 1);
  if (data[0] & 1) {
    CheckManifest(rest);
  } else {
    CheckEntryPath(rest);
  }
  return 0;
}
