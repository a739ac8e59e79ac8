#include "lore/proposals/queue.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/log/jsonl.h"
#include "lore/store/layout.h"
#include "proposals/append_file.h"
#include "proposals/summary.h"
#include "text/lines.h"

namespace lore::proposals {

json::Limits QueueLineLimits() {
  json::Limits l;
  l.max_bytes = size_t{1} << 20;  // a valid record is under 8 KB
  l.max_depth = 64;
  l.dialect = json::Dialect::kJavaScript;  // what the original's JSON.parse reads
  return l;
}

void ScanLines(std::string_view bytes, const std::function<void(ScannedLine&)>& on_line) {
  const json::Limits limits = QueueLineLimits();
  log::LineScanner lines(bytes);
  log::Line line;
  size_t offset = 0;
  while (lines.Next(&line)) {
    ScannedLine l;
    l.span = Span{line.number, offset, line.text.size() + (line.has_newline ? 1 : 0)};
    offset += l.span.length;
    l.blank = log::IsBlank(line.text);
    if (!l.blank) {
      if (auto j = json::ParseOrdered(line.text, limits); j && j->is_object()) {
        l.object = std::move(*j);
      }
    }
    on_line(l);
  }
}

QueueScan ScanQueue(std::string bytes) {
  QueueScan scan;
  scan.bytes = std::move(bytes);
  ScanLines(scan.bytes, [&](ScannedLine& l) {
    if (l.blank) {
      scan.blank.push_back(l.span);
    } else if (!l.object) {
      scan.malformed.push_back(l.span);
    } else {
      Entry e{l.span, std::move(*l.object), {}};
      e.id = json::StringOr(e.record, "id", "");
      scan.records.push_back(std::move(e));
    }
  });
  return scan;
}

Result<QueueScan> ReadQueue(const std::string& path) {
  auto text = fs::ReadFile(path, fs::Kind::kLog);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return QueueScan{};
    return tl::unexpected(text.error());
  }
  return ScanQueue(std::move(*text));
}

namespace {

// Lines as lore and the original tool write them start with the id and the
// time, whose lengths are fixed, so "wave_id" sits at a known offset.
constexpr std::string_view kIdHead = "{\"id\":\"";                 // then 36 chars of id
constexpr std::string_view kCreatedHead = "\",\"created_at\":\"";  // then 24 chars of time
constexpr std::string_view kWaveHead = "\",\"wave_id\":\"";
constexpr size_t kCreatedAt = kIdHead.size() + 36;
constexpr size_t kWaveAt = kCreatedAt + kCreatedHead.size() + 24;

bool Canonical(std::string_view line) {
  return line.size() > kWaveAt + kWaveHead.size() && line.substr(0, kIdHead.size()) == kIdHead &&
         line.substr(kCreatedAt, kCreatedHead.size()) == kCreatedHead &&
         line.substr(kWaveAt, kWaveHead.size()) == kWaveHead;
}

// Whether `line` (a brace-delimited line) holds `"wave_id":<w>` or the
// spaced form, where `w` is the wave as a JSON string.
bool HoldsWave(std::string_view line, const std::string& w) {
  for (std::string_view key :
       {std::string_view("\"wave_id\":"), std::string_view("\"wave_id\": ")}) {
    size_t at = line.find(key);
    if (at == std::string_view::npos) continue;
    at += key.size();
    if (line.substr(at, w.size()) != w) continue;
    const char next = at + w.size() < line.size() ? line[at + w.size()] : '\0';
    if (next == ',' || next == '}' || next == ' ') return true;
  }
  return false;
}

}  // namespace

int64_t CountWaveLines(std::string_view data, std::string_view wave) {
  const std::string w = json::DumpJs(Json(std::string(wave)));   // "\"W1\""
  const std::string_view value = std::string_view(w).substr(1);  // W1"
  int64_t n = 0;
  size_t pos = 0;
  while (pos < data.size()) {
    const void* nl = std::memchr(data.data() + pos, '\n', data.size() - pos);
    const size_t end =
        nl ? static_cast<size_t>(static_cast<const char*>(nl) - data.data()) : data.size();
    std::string_view line = data.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.size() < 2 || line.front() != '{' || line.back() != '}') continue;
    if (Canonical(line)) {
      const size_t at = kWaveAt + kWaveHead.size();
      n += line.substr(at, value.size()) == value && line.size() > at + value.size() &&
           (line[at + value.size()] == ',' || line[at + value.size()] == '}');
    } else {
      n += HoldsWave(line, w);
    }
  }
  return n;
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
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd->get(), 0);
  if (map == MAP_FAILED) {
    LORE_ASSIGN(std::string text, fs::ReadAll(fd->get(), path, fs::Kind::kLog));
    return CountWaveLines(text, wave);
  }
  const int64_t n = CountWaveLines(std::string_view(static_cast<const char*>(map), size), wave);
  ::munmap(map, size);
  return n;
}

// The raw value of `"subject":"…"` in `line` when it is written so (lore's
// and the original tool's compact lines) and holds no escape; else nullopt.
std::optional<std::string_view> RawSubject(std::string_view line) {
  constexpr std::string_view kKey = "\"subject\":\"";
  const size_t at = line.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  const size_t from = at + kKey.size();
  const size_t end = line.find_first_of("\"\\", from);
  if (end == std::string_view::npos || line[end] != '"') return std::nullopt;
  return line.substr(from, end - from);
}

// The id of the first queued record of `all` that `same` holds for. A line
// whose subject can be read in place and differs is not parsed.
std::optional<std::string> FindSameIn(std::string_view all, const SameProposal& same) {
  const json::Limits limits = QueueLineLimits();
  for (const std::string_view line : text::Lines(all)) {
    if (auto raw = RawSubject(line);
        raw && same.normalise && same.normalise(*raw) != same.subject) {
      continue;
    }
    auto j = json::ParseOrdered(line, limits);
    if (j && j->is_object() && same.same(*j)) {
      return std::optional<std::string>(json::StringOr(*j, "id", ""));
    }
  }
  return std::nullopt;
}

// FindSameIn over the queue at `path`, mapped rather than read (as
// CountInFile): a missing queue holds nothing.
Result<std::optional<std::string>> FindSame(const std::string& path, const SameProposal& same) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) {
    if (fd.error().code == ErrorCode::kNotFound) return std::nullopt;
    return tl::unexpected(fd.error());
  }
  struct stat st;
  if (::fstat(fd->get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "proposals.jsonl is not a regular file", path, 0,
                "move it away");
  }
  if (st.st_size == 0) return std::nullopt;
  const size_t size = static_cast<size_t>(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd->get(), 0);
  if (map == MAP_FAILED) {
    LORE_ASSIGN(std::string text, fs::ReadAll(fd->get(), path, fs::Kind::kLog));
    return FindSameIn(text, same);
  }
  auto found = FindSameIn(std::string_view(static_cast<const char*>(map), size), same);
  ::munmap(map, size);
  return found;
}

Result<Enqueued> AppendUnderLock(const Paths& paths, const Json& record, const Settings& settings,
                                 const std::string& wave, const SameProposal& same) {
  Enqueued out;
  out.quota = settings.quota_per_wave;
  if (same.same) {
    LORE_ASSIGN(std::optional<std::string> queued_id, FindSame(paths.queue, same));
    if (queued_id) {
      out.outcome = Outcome::kAlreadyQueued;
      out.queued_id = std::move(*queued_id);
      return out;
    }
  }
  LORE_ASSIGN(const int64_t count, CountInFile(paths.queue, wave));
  if (count >= settings.quota_per_wave) {
    LORE_ASSIGN(Counters c, Bump(paths, wave, Counter::kDropped));
    out.outcome = Outcome::kQuotaExceeded;
    out.dropped = c.dropped;
    return out;
  }
  LORE_TRY(AppendAndSync(paths.queue, json::DumpJs(record) + "\n"));
  out.outcome = Outcome::kQueued;
  out.position = count + 1;
  (void)Bump(paths, wave, Counter::kQueued);  // the line is written: a counter failure is no loss
  return out;
}

}  // namespace

Result<Enqueued> Enqueue(const Paths& paths, const Json& record, const Settings& settings,
                         std::chrono::milliseconds lock_timeout, const SameProposal& same) {
  const std::string wave = record.at("wave_id").get<std::string>();
  const double confidence = record.at("confidence").get<double>();
  if (confidence < settings.confidence_floor) {
    LORE_TRY(Bump(paths, wave, Counter::kBelowFloor));
    Enqueued out;
    out.outcome = Outcome::kBelowFloor;
    out.quota = settings.quota_per_wave;
    return out;
  }
  LORE_TRY(fs::RefuseSymlink(paths.queue, store::kProposalsFile));
  auto lock = WriteLock::Acquire(paths.lock, lock_timeout);
  if (!lock) {
    (void)Bump(paths, wave, Counter::kFsError);
    return tl::unexpected(lock.error());
  }
  auto r = AppendUnderLock(paths, record, settings, wave, same);
  if (!r) {
    (void)Bump(paths, wave, Counter::kFsError);
    return r;
  }
  r->reclaimed = lock->reclaimed();
  return r;
}

}  // namespace lore::proposals
