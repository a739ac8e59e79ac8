// JSON Lines scanning (log/jsonl.h) and the capture line (capture.h): the
// scanner accounts for every line, and a line MakeRecordLine produces holds no
// newline and scans back as exactly one object line.
#include <chrono>

#include "check.h"
#include "lore/capture/capture.h"
#include "lore/log/jsonl.h"

namespace {

void CheckScan(std::string_view data) {
  lore::log::ScanResult scan = lore::log::ScanObjects(data);
  int64_t lines = 0, blank = 0;
  lore::log::LineScanner scanner(data);
  lore::log::Line line;
  size_t bytes = 0;
  while (scanner.Next(&line)) {
    ++lines;
    LORE_FUZZ_CHECK(line.number == lines);
    LORE_FUZZ_CHECK(line.text.find('\n') == std::string_view::npos);
    bytes += line.text.size() + (line.has_newline ? 1 : 0);
    if (lore::log::IsBlank(line.text)) ++blank;
  }
  LORE_FUZZ_CHECK(bytes == data.size());
  LORE_FUZZ_CHECK(scan.lines == lines);
  LORE_FUZZ_CHECK(scan.objects + static_cast<int64_t>(scan.problems.size()) + blank == lines);
  LORE_FUZZ_CHECK(scan.ends_with_newline == (data.empty() || data.back() == '\n'));
}

void CheckCapture(std::string_view input, lore::capture::Kind kind) {
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1767225600));
  auto line = lore::capture::MakeRecordLine(input, kind, now);
  if (!line) return;
  LORE_FUZZ_CHECK(line->find('\n') == std::string::npos);
  lore::log::ScanResult scan = lore::log::ScanObjects(*line + "\n");
  LORE_FUZZ_CHECK(scan.lines == 1 && scan.objects == 1 && scan.problems.empty());
  // Capturing a captured line again gives the same line (kind and time are
  // already set, in place).
  auto again = lore::capture::MakeRecordLine(*line, kind, now);
  LORE_FUZZ_CHECK(again && *again == *line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = lore::fuzz::Input(data, size);
  CheckScan(input);
  CheckCapture(input, size % 2 ? lore::capture::Kind::kReview : lore::capture::Kind::kSlicing);
  return 0;
}
