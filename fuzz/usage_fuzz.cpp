// The usage log's two formats (src/recall/usage.h): a line of usage.jsonl and
// the fold recall/usage.fold, from any bytes. A line folds or is refused,
// never crashes; a fold is taken whole or not at all, and a fold it takes
// renders back to a fold that reads the same. The same bytes as an item's
// text: the code names it cites (recall/symbols.h) are identifiers it holds.
#include <cctype>

#include "check.h"
#include "recall/symbols.h"
#include "recall/usage.h"

namespace {

using lore::recall::FoldKey;
using lore::recall::Usage;

bool SameItems(const Usage& a, const Usage& b) {
  if (a.items.size() != b.items.size()) return false;
  for (const auto& [id, u] : a.items) {
    auto it = b.items.find(id);
    if (it == b.items.end() || it->second.shown != u.shown || it->second.opened != u.opened ||
        it->second.last_used != u.last_used || it->second.pinned != u.pinned)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = lore::fuzz::Input(data, size);
  const std::vector<std::string> cited = lore::recall::CitedSymbols(in);
  LORE_FUZZ_CHECK(cited.size() <= 8);
  for (const std::string& name : cited) {
    LORE_FUZZ_CHECK(name.size() >= 4 && name.size() <= 80);
    LORE_FUZZ_CHECK(in.find(name) != std::string_view::npos);
    for (char c : name) LORE_FUZZ_CHECK(std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  }
  // As a log line: folded whole, or refused; the same by the parser alone.
  Usage line, parsed;
  const bool folded = lore::recall::FoldLine(in, nullptr, &line);
  LORE_FUZZ_CHECK(lore::recall::FoldLineAs(in, nullptr, &parsed, /*parse_always=*/true) == folded);
  LORE_FUZZ_CHECK(SameItems(line, parsed));
  if (folded) {
    LORE_FUZZ_CHECK(line.items.size() == 1);
    LORE_FUZZ_CHECK(!line.items.begin()->first.empty());
  } else {
    LORE_FUZZ_CHECK(line.items.empty());
  }
  // As a fold of the log its own header names (so that the header is taken).
  FoldKey key;
  if (in.rfind("lore-usage-fold 1 ", 0) == 0) {
    std::string head(
        in.substr(18, in.find('\n') == std::string_view::npos ? 0 : in.find('\n') - 18));
    if (std::sscanf(head.c_str(), "%lu %lu %lu", &key.dev, &key.ino, &key.offset) != 3) key = {};
  }
  Usage fold;
  const uint64_t offset = lore::recall::ParseFold(in, key, nullptr, &fold);
  if (offset == 0) return 0;
  LORE_FUZZ_CHECK(offset == key.offset);
  const std::string again = lore::recall::RenderFold(fold, key);
  Usage back;
  LORE_FUZZ_CHECK(lore::recall::ParseFold(again, key, nullptr, &back) == offset);
  LORE_FUZZ_CHECK(SameItems(fold, back));
  // Asking for some items gives those, as they are in the whole fold.
  std::vector<std::string> only;
  for (const auto& [id, u] : fold.items) {
    if (only.size() < 3) only.push_back(id);
  }
  only.push_back("memory/decisions/absent.md");
  Usage some;
  LORE_FUZZ_CHECK(lore::recall::ParseFold(in, key, &only, &some) == offset);
  for (const auto& [id, u] : some.items) LORE_FUZZ_CHECK(fold.items.count(id) == 1);
  LORE_FUZZ_CHECK(some.items.size() == std::min<size_t>(fold.items.size(), 3));
  return 0;
}
