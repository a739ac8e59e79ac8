#include "redact/file_scan.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "lore/fs/fd.h"
#include "lore/fs/tree.h"

namespace lore::redact {
namespace {

constexpr size_t kChunk = size_t{1} << 20;
constexpr size_t kMaxLine = size_t{16} << 20;

// Reports each rule of `text` once per line.
void ScanLine(std::string_view text, int64_t line, const LineReport& report) {
  std::vector<Rule> seen;
  for (const Finding& f : Scan(text)) {
    bool again = false;
    for (Rule r : seen) again = again || r == f.rule;
    if (again) continue;
    seen.push_back(f.rule);
    report(line, f.rule);
  }
}

}  // namespace

Status ScanFile(const std::string& path, const LineReport& report) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY));
  std::vector<char> buf(kChunk);
  std::string carry;  // the start of a line cut by the end of a chunk
  int64_t line = 1;
  while (true) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot read", path));
    if (n == 0) break;
    const std::string_view chunk(buf.data(), static_cast<size_t>(n));
    size_t from = 0;
    while (from < chunk.size()) {
      const size_t nl = chunk.find('\n', from);
      if (nl == std::string_view::npos) {
        carry.append(chunk.substr(from));
        if (carry.size() >= kMaxLine) {
          ScanLine(carry, line, report);
          carry.clear();
        }
        break;
      }
      if (carry.empty()) {
        ScanLine(chunk.substr(from, nl - from), line, report);
      } else {
        carry.append(chunk.substr(from, nl - from));
        ScanLine(carry, line, report);
        carry.clear();
      }
      ++line;
      from = nl + 1;
    }
  }
  if (!carry.empty()) ScanLine(carry, line, report);
  return Ok();
}

Result<int64_t> ScanTree(const std::string& dir, const TreeReport& report) {
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(dir));
  int64_t found = 0;
  for (const fs::TreeEntry& e : entries) {
    // The entry's own name (its folder's was reported with the folder);
    // the path is reported cleaned, so that the report never shows it.
    const size_t slash = e.rel.rfind('/');
    const std::string_view name =
        std::string_view(e.rel).substr(slash == std::string::npos ? 0 : slash + 1);
    const std::string shown = ScanName(e.rel).empty() ? e.rel : CleanName(e.rel);
    std::vector<Rule> seen;
    for (const Finding& f : ScanName(name)) {
      if (std::find(seen.begin(), seen.end(), f.rule) != seen.end()) continue;
      seen.push_back(f.rule);
      ++found;
      report(shown, 0, f.rule);
    }
    if (e.type != fs::EntryType::kFile) continue;
    auto scanned = ScanFile(dir + "/" + e.rel, [&](int64_t line, Rule rule) {
      ++found;
      report(shown, line, rule);
    });
    // A file removed since the walk (a lock, a temporary file) held nothing.
    if (!scanned && scanned.error().code != ErrorCode::kNotFound) {
      return tl::unexpected(scanned.error());
    }
  }
  return found;
}

}  // namespace lore::redact
