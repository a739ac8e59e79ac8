#include "log/stream_scan.h"

#include "lore/fs/fd.h"

namespace lore::log {
namespace {

// Collects what the lines say, as ScanObjects does.
class Tally {
 public:
  Tally(size_t max_problems, size_t max_line) : max_problems_(max_problems), max_line_(max_line) {}

  void Take(const Line& line) {
    ++r_.lines;
    r_.ends_with_newline = line.has_newline;
    if (line.text.size() > max_line_) return Add(line.number, TooLongLine(max_line_));
    if (IsBlank(line.text)) return;
    if (auto problem = CheckObjectLine(line)) return Add(line.number, std::move(*problem));
    ++r_.objects;
  }
  // A line too long to hold: counted and reported without its text.
  void TooLong(int64_t number) {
    ++r_.lines;
    r_.ends_with_newline = false;  // until its newline turns up
    Add(number, TooLongLine(max_line_));
  }
  void EndOfTooLongLine() { r_.ends_with_newline = true; }
  bool Full() const { return r_.problems.size() >= max_problems_; }
  ScanResult Finish() { return std::move(r_); }

 private:
  void Add(int64_t number, std::string what) {
    if (!Full()) r_.problems.push_back({number, std::move(what)});
  }

  ScanResult r_;
  size_t max_problems_, max_line_;
};

}  // namespace

std::string TooLongLine(size_t max_line_bytes) {
  constexpr size_t kMiB = size_t{1} << 20;
  if (max_line_bytes % kMiB == 0) {
    return "line longer than " + std::to_string(max_line_bytes / kMiB) + " MiB";
  }
  return "line longer than " + std::to_string(max_line_bytes) + " bytes";
}

Result<ScanResult> ScanFd(int fd, uint64_t size, const std::string& path, size_t max_problems,
                          const StreamLimits& limits) {
  Tally tally(max_problems, limits.max_line_bytes);
  if (tally.Full()) return tally.Finish();
  auto take = [&](const StreamedLine& l) {
    if (l.oversized) {
      tally.TooLong(l.number);
      tally.EndOfTooLongLine();
    } else {
      tally.Take(Line{l.number, l.text, /*has_newline=*/true});
    }
    return !tally.Full();
  };
  LORE_ASSIGN(StreamEnd end, StreamLines(fd, 0, 1, size, path, take, limits));
  // The bytes after the last '\n': a line cut off without its newline.
  if (tally.Full() || end.end >= size) return tally.Finish();
  const uint64_t rest = size - end.end;
  if (rest > limits.max_line_bytes) {
    tally.TooLong(end.last_line + 1);
    return tally.Finish();
  }
  std::string tail(static_cast<size_t>(rest), '\0');
  LORE_ASSIGN(size_t got, fs::ReadAt(fd, tail.data(), tail.size(), end.end, path));
  tail.resize(got);
  if (!tail.empty()) tally.Take(Line{end.last_line + 1, tail, /*has_newline=*/false});
  return tally.Finish();
}

}  // namespace lore::log
