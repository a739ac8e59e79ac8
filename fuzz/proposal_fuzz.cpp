// Proposal records (proposals/record.h, queue.h, present.h): a queue file of
// any bytes is split into spans that cover it exactly, in order; every record
// validates, labels and dumps without failing; DumpJs is stable (dumping what
// it wrote gives the same line).
#include "check.h"
#include "lore/json/dump_js.h"
#include "lore/proposals/present.h"
#include "lore/proposals/propose_input.h"
#include "lore/proposals/queue.h"
#include "lore/proposals/record.h"

namespace {

using lore::Json;

void CheckRecord(const Json& record) {
  (void)lore::proposals::Validate(record);
  (void)lore::proposals::Label(record);
  (void)lore::proposals::Description(record);
  const std::string line = lore::json::DumpJs(record);
  LORE_FUZZ_CHECK(line.find('\n') == std::string::npos);
  Json back = Json::parse(line, nullptr, false);
  LORE_FUZZ_CHECK(!back.is_discarded() && back.is_object());
  LORE_FUZZ_CHECK(lore::json::DumpJs(back) == line);
  if (auto c = record.find("confidence"); c != record.end() && c->is_number()) {
    (void)lore::proposals::ParseConfidence(c->dump());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = lore::fuzz::Input(data, size);
  lore::proposals::QueueScan scan = lore::proposals::ScanQueue(std::string(input));
  const size_t spans = scan.records.size() + scan.malformed.size() + scan.blank.size();
  std::vector<lore::proposals::Span> all;
  all.reserve(spans);
  for (const auto& e : scan.records) all.push_back(e.span);
  all.insert(all.end(), scan.malformed.begin(), scan.malformed.end());
  all.insert(all.end(), scan.blank.begin(), scan.blank.end());
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a.offset < b.offset; });
  size_t at = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    LORE_FUZZ_CHECK(all[i].offset == at && all[i].line == static_cast<int64_t>(i) + 1);
    at += all[i].length;
  }
  LORE_FUZZ_CHECK(at == input.size());
  for (const auto& e : scan.records) CheckRecord(e.record);
  (void)lore::proposals::CountWaveLines(input, "w1");
  (void)lore::proposals::ParseConfidence(input.substr(0, 64));
  return 0;
}
