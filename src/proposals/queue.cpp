#include "lore/proposals/queue.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "lore/fs/fd.h"
#include "lore/log/jsonl.h"
#include "lore/proposals/append_file.h"
#include "lore/proposals/summary.h"

namespace lore::proposals {

QueueScan ScanQueue(std::string bytes) {
  QueueScan scan;
  scan.bytes = std::move(bytes);
  log::LineScanner lines(scan.bytes);
  log::Line line;
  size_t offset = 0;
  while (lines.Next(&line)) {
    Span span{line.number, offset, line.text.size() + (line.has_newline ? 1 : 0)};
    offset += span.length;
    if (log::IsBlank(line.text)) {
      scan.blank.push_back(span);
      continue;
    }
    Json j = Json::parse(line.text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      scan.malformed.push_back(span);
      continue;
    }
    Entry e{span, std::move(j), {}};
    if (e.record.contains("id") && e.record["id"].is_string())
      e.id = e.record["id"].get<std::string>();
    scan.records.push_back(std::move(e));
  }
  return scan;
}

Result<QueueScan> ReadQueue(const std::string& path) {
  auto text = fs::ReadFile(path);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return QueueScan{};
    return tl::unexpected(text.error());
  }
  return ScanQueue(std::move(*text));
}

namespace {

int64_t CountNeedle(std::string_view data, const std::string& needle, std::vector<size_t>* seen) {
  int64_t n = 0;
  size_t pos = 0;
  while (pos < data.size()) {
    const void* hit = ::memmem(data.data() + pos, data.size() - pos, needle.data(), needle.size());
    if (hit == nullptr) break;
    size_t at = static_cast<size_t>(static_cast<const char*>(hit) - data.data());
    size_t start = data.rfind('\n', at);
    start = start == std::string_view::npos ? 0 : start + 1;
    size_t end = data.find('\n', at);
    if (end == std::string_view::npos) end = data.size();
    std::string_view line = data.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    const char next = at + needle.size() < data.size() ? data[at + needle.size()] : '\0';
    const bool whole_value = next == ',' || next == '}' || next == ' ';
    if (whole_value && !line.empty() && line.front() == '{' && line.back() == '}') {
      bool counted = false;
      for (size_t s : *seen) counted = counted || s == start;
      if (!counted) {
        seen->push_back(start);
        ++n;
      }
    }
    pos = end;
  }
  return n;
}

}  // namespace

int64_t CountWaveLines(std::string_view data, std::string_view wave) {
  std::vector<size_t> seen;
  const std::string w = DumpJs(Json(std::string(wave)));
  return CountNeedle(data, "\"wave_id\":" + w, &seen) +
         CountNeedle(data, "\"wave_id\": " + w, &seen);
}

namespace {

// CountWaveLines over the file at `path`, mapped rather than read: the
// queue may hold thousands of lines and this runs on every proposal.
Result<int64_t> CountInFile(const std::string& path, std::string_view wave) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) {
    if (fd.error().code == ErrorCode::kNotFound) return 0;
    return tl::unexpected(fd.error());
  }
  struct stat st;
  if (::fstat(fd->get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "proposals.jsonl is not a regular file", path, 0,
                "move it away");
  }
  if (st.st_size == 0) return 0;
  const size_t size = static_cast<size_t>(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd->get(), 0);
  if (map == MAP_FAILED) {
    LORE_ASSIGN(std::string text, fs::ReadAll(fd->get(), path));
    return CountWaveLines(text, wave);
  }
  ::madvise(map, size, MADV_SEQUENTIAL | MADV_WILLNEED);
  const int64_t n = CountWaveLines(std::string_view(static_cast<const char*>(map), size), wave);
  ::munmap(map, size);
  return n;
}

Result<Enqueued> AppendUnderLock(const Paths& paths, const Json& record, const Settings& settings,
                                 const std::string& wave) {
  Enqueued out;
  out.quota = settings.quota_per_wave;
  LORE_ASSIGN(const int64_t count, CountInFile(paths.queue, wave));
  if (count >= settings.quota_per_wave) {
    LORE_ASSIGN(Counters c, Bump(paths, wave, Counter::kDropped));
    out.outcome = Outcome::kQuotaExceeded;
    out.dropped = c.dropped;
    return out;
  }
  LORE_TRY(AppendAndSync(paths.queue, DumpJs(record) + "\n"));
  out.outcome = Outcome::kQueued;
  out.position = count + 1;
  (void)Bump(paths, wave, Counter::kQueued);  // the line is written: a counter failure is no loss
  return out;
}

}  // namespace

Result<Enqueued> Enqueue(const Paths& paths, const Json& record, const Settings& settings,
                         std::chrono::milliseconds lock_timeout) {
  const std::string wave = record.at("wave_id").get<std::string>();
  const double confidence = record.at("confidence").get<double>();
  if (confidence < settings.confidence_floor) {
    LORE_TRY(Bump(paths, wave, Counter::kBelowFloor));
    Enqueued out;
    out.outcome = Outcome::kBelowFloor;
    out.quota = settings.quota_per_wave;
    return out;
  }
  LORE_TRY(fs::RefuseSymlink(paths.queue, "proposals.jsonl"));
  auto lock = WriteLock::Acquire(paths.lock, lock_timeout);
  if (!lock) {
    (void)Bump(paths, wave, Counter::kFsError);
    return tl::unexpected(lock.error());
  }
  auto r = AppendUnderLock(paths, record, settings, wave);
  if (!r) {
    (void)Bump(paths, wave, Counter::kFsError);
    return r;
  }
  r->reclaimed = lock->reclaimed();
  return r;
}

}  // namespace lore::proposals
