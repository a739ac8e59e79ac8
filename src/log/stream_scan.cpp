#include "lore/log/stream_scan.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "lore/fs/fd.h"

namespace lore::log {
namespace {

// Reads up to `want` bytes at `offset`; fewer only at the end of the file.
Result<size_t> ReadAt(int fd, char* out, size_t want, uint64_t offset, const std::string& path) {
  size_t got = 0;
  while (got < want) {
    ssize_t n = ::pread(fd, out + got, want - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot read", path));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  return got;
}

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
  const size_t chunk = std::max<size_t>(limits.chunk_bytes, 1);
  Tally tally(max_problems, limits.max_line_bytes);
  std::string buf;        // [carry][the chunk just read]
  size_t carry = 0;       // bytes at buf's front: the start of a line not yet ended
  int64_t number = 1;     // the number of the line that starts at buf[0]
  bool skipping = false;  // inside a line too long to hold: dropping its bytes
  uint64_t offset = 0;
  while (offset < size && !tally.Full()) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk, size - offset));
    buf.resize(carry + want);
    LORE_ASSIGN(size_t got, ReadAt(fd, buf.data() + carry, want, offset, path));
    if (got == 0) break;  // the file shrank under us
    offset += got;
    std::string_view data(buf.data(), carry + got);
    size_t start = 0;
    if (skipping) {
      size_t nl = data.find('\n');
      if (nl == std::string_view::npos) continue;  // carry stays 0: nothing held
      start = nl + 1;
      skipping = false;
      tally.EndOfTooLongLine();
      ++number;
    }
    if (size_t last = data.rfind('\n'); last != std::string_view::npos && last >= start) {
      LineScanner lines(data.substr(start, last + 1 - start), number);
      Line line;
      while (!tally.Full() && lines.Next(&line)) {
        tally.Take(line);
        number = line.number + 1;
      }
      start = last + 1;
    }
    const size_t rest = data.size() - start;
    if (rest > limits.max_line_bytes) {
      tally.TooLong(number);
      skipping = true;
      carry = 0;
    } else {
      std::memmove(buf.data(), buf.data() + start, rest);
      carry = rest;
    }
    // The carry grew for one long line only: give that memory back.
    if (buf.capacity() > 4 * chunk && carry < chunk) std::string(buf.data(), carry).swap(buf);
  }
  if (carry > 0 && !tally.Full()) {
    tally.Take(Line{number, std::string_view(buf.data(), carry), /*has_newline=*/false});
  }
  return tally.Finish();
}

}  // namespace lore::log
