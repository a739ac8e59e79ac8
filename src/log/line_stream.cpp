#include "lore/log/line_stream.h"

#include <algorithm>
#include <cstring>

#include "lore/fs/fd.h"

namespace lore::log {
Result<StreamEnd> StreamLines(int fd, uint64_t offset, int64_t first_line, uint64_t size,
                              const std::string& path,
                              const std::function<bool(const StreamedLine&)>& visit,
                              const StreamLimits& limits) {
  const size_t chunk = std::max<size_t>(limits.chunk_bytes, 1);
  StreamEnd done{first_line - 1, offset};
  std::string buf;              // [carry][the chunk just read]
  size_t carry = 0;             // bytes of a line not yet ended, at buf's front
  uint64_t buf_start = offset;  // file offset of buf[0]
  bool skipping = false;        // inside an oversized line: dropping its bytes
  uint64_t skip_start = 0;      // its first byte's offset
  int64_t number = first_line;
  uint64_t pos = offset;
  while (pos < size) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk, size - pos));
    buf.resize(carry + want);
    LORE_ASSIGN(size_t got, fs::ReadAt(fd, buf.data() + carry, want, pos, path));
    if (got == 0) break;  // the file shrank under us
    pos += got;
    std::string_view data(buf.data(), carry + got);
    size_t start = 0;
    if (skipping) {
      size_t nl = data.find('\n');
      if (nl == std::string_view::npos) {
        buf_start = pos;
        carry = 0;
        continue;
      }
      StreamedLine line{number, buf_start + nl + 1, {}, true, buf_start + nl - skip_start};
      done = {number, line.end};
      ++number;
      skipping = false;
      start = nl + 1;
      if (!visit(line)) return done;
    }
    for (;;) {
      size_t nl = data.find('\n', start);
      if (nl == std::string_view::npos) break;
      StreamedLine line;
      line.number = number;
      line.end = buf_start + nl + 1;
      line.length = nl - start;
      if (line.length > limits.max_line_bytes) {
        line.oversized = true;
      } else {
        line.text = data.substr(start, nl - start);
      }
      done = {number, line.end};
      ++number;
      start = nl + 1;
      if (!visit(line)) return done;
    }
    const size_t rest = data.size() - start;
    if (rest > limits.max_line_bytes) {
      skipping = true;
      skip_start = buf_start + start;
      carry = 0;
      buf_start = pos;
    } else {
      std::memmove(buf.data(), buf.data() + start, rest);
      carry = rest;
      buf_start += start;
    }
    // The carry grew for one long line only: give that memory back.
    if (buf.capacity() > 4 * chunk && carry < chunk) std::string(buf.data(), carry).swap(buf);
  }
  return done;
}

}  // namespace lore::log
