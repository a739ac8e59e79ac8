#include "recall/usage.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <optional>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/log/line_stream.h"
#include "proposals/append_file.h"
#include "redact/redact.h"

namespace lore::recall {
namespace {

constexpr std::string_view kUseNames[] = {"shown", "opened", "pin", "unpin"};

// A usage line is small: an item id and a session id.
constexpr size_t kMaxUsageLine = 4096;

std::optional<Use> ParseUse(std::string_view s) {
  for (size_t i = 0; i < std::size(kUseNames); ++i) {
    if (kUseNames[i] == s) return static_cast<Use>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view UseName(Use u) { return kUseNames[static_cast<size_t>(u)]; }

Status RecordUse(const store::Store& store, const std::vector<UseEvent>& events,
                 std::string_view session, text::TimePoint now) {
  if (events.empty()) return Ok();
  const std::string at = text::UtcMillis(now);
  const std::string cleaned_session = redact::Clean(session);
  std::string bytes;
  for (const UseEvent& e : events) {
    Json line = Json::object();
    line["at"] = at;
    line["use"] = std::string(UseName(e.use));
    line["item"] = redact::Clean(e.item);
    if (!e.via.empty()) line["via"] = e.via;
    if (!cleaned_session.empty()) line["session"] = cleaned_session;
    std::string text = json::DumpJs(line);
    if (text.size() > kMaxUsageLine) continue;  // an item id no reader would take
    bytes += text;
    bytes += '\n';
  }
  if (bytes.empty()) return Ok();
  LORE_TRY(fs::RefuseSymlink(store.dir(), "the store"));
  LORE_ASSIGN(auto file, proposals::AppendFile::Open(fs::Join(store.dir(), kUsageFile),
                                                     std::chrono::milliseconds(50)));
  // No fdatasync: counts are statistics, and a hook must not wait on the
  // disk; a killed process loses nothing (the bytes are in the page cache).
  return file.Append(bytes);
}

namespace {

// The value of "item" as written by RecordUse (no escapes), or nullopt when
// the line must be parsed to know.
std::optional<std::string_view> QuickItem(std::string_view line) {
  constexpr std::string_view kKey = "\"item\":\"";
  size_t at = line.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  size_t begin = at + kKey.size();
  size_t end = line.find('"', begin);
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view item = line.substr(begin, end - begin);
  if (item.find('\\') != std::string_view::npos) return std::nullopt;
  return item;
}

constexpr std::string_view kFoldMagic = "lore-usage-fold 1 ";

}  // namespace

uint64_t ParseFold(std::string_view all, const FoldKey& log, const std::vector<std::string>* only,
                   Usage* out) {
  if (all.rfind(kFoldMagic, 0) != 0) return 0;
  size_t nl = all.find('\n');
  if (nl == std::string_view::npos || nl > 200) return 0;
  FoldKey h;
  std::string head(all.substr(kFoldMagic.size(), nl - kFoldMagic.size()));
  char extra = 0;
  if (std::sscanf(head.c_str(), "%lu %lu %lu%c", &h.dev, &h.ino, &h.offset, &extra) != 3) return 0;
  if (h.dev != log.dev || h.ino != log.ino || h.offset > log.offset) return 0;
  std::string_view body = all.substr(nl + 1);
  // Every line whole, each `id\tshown\topened\tlast\tpinned`; anything else
  // makes the fold unusable (it is derived: the log is read whole instead).
  std::vector<std::pair<std::string_view, ItemUsage>> lines;
  for (size_t pos = 0; pos < body.size();) {
    size_t end = body.find('\n', pos);
    if (end == std::string_view::npos) return 0;  // a fold is written whole, never torn
    std::string_view line = body.substr(pos, end - pos);
    pos = end + 1;
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) return 0;
    ItemUsage u;
    int pinned = 0;
    std::string rest(line.substr(tab + 1));
    if (std::sscanf(rest.c_str(), "%ld\t%ld\t%ld\t%d%c", &u.shown, &u.opened, &u.last_used, &pinned,
                    &extra) != 4) {
      return 0;
    }
    u.pinned = pinned != 0;
    if (!lines.empty() && !(lines.back().first < line.substr(0, tab))) return 0;  // sorted, once
    lines.emplace_back(line.substr(0, tab), u);
  }
  if (!only) {
    for (const auto& [id, u] : lines) out->items.emplace(std::string(id), u);
    return h.offset;
  }
  for (const std::string& id : *only) {
    auto it = std::lower_bound(lines.begin(), lines.end(), id,
                               [](const auto& l, const std::string& k) { return l.first < k; });
    if (it != lines.end() && it->first == id) out->items.emplace(id, it->second);
  }
  return h.offset;
}

std::string RenderFold(const Usage& usage, const FoldKey& key) {
  std::string text = std::string(kFoldMagic) + std::to_string(key.dev) + " " +
                     std::to_string(key.ino) + " " + std::to_string(key.offset) + "\n";
  for (const auto& [id, iu] : usage.items) {  // std::map: sorted by id
    if (id.empty() || id.find_first_of("\t\n") != std::string::npos) continue;
    text += id + "\t" + std::to_string(iu.shown) + "\t" + std::to_string(iu.opened) + "\t" +
            std::to_string(iu.last_used) + "\t" + (iu.pinned ? "1" : "0") + "\n";
  }
  return text;
}

namespace {

struct Fields {
  std::string_view at, use, item;
};

// The fields of a line exactly as RecordUse writes it, whose strings are
// printable ASCII without quotes or backslashes:
//   {"at":"…","use":"…","item":"…"[,"via":"…"][,"session":"…"]}
// nullopt for any other line, which the JSON parser then reads: the two
// agree on every line this takes (the usage fuzzer compares them). A hook
// reads the log's tail on every call, and most of it is lines like these.
std::optional<Fields> OwnLine(std::string_view line) {
  if (line.size() > kMaxUsageLine) return std::nullopt;
  size_t pos = 0;
  auto literal = [&](std::string_view s) {
    if (line.substr(pos, s.size()) != s) return false;
    pos += s.size();
    return true;
  };
  auto string = [&](std::string_view* v) {  // after its opening quote
    size_t start = pos;
    while (pos < line.size() && line[pos] != '"') {
      unsigned char c = static_cast<unsigned char>(line[pos]);
      if (c < 0x20 || c > 0x7e || c == '\\') return false;
      ++pos;
    }
    if (pos == line.size()) return false;
    *v = line.substr(start, pos++ - start);
    return true;
  };
  Fields f;
  std::string_view ignored;
  if (!literal("{\"at\":\"") || !string(&f.at) || !literal(",\"use\":\"") || !string(&f.use) ||
      !literal(",\"item\":\"") || !string(&f.item)) {
    return std::nullopt;
  }
  if (literal(",\"via\":\"") && !string(&ignored)) return std::nullopt;
  if (literal(",\"session\":\"") && !string(&ignored)) return std::nullopt;
  if (!literal("}") || pos != line.size()) return std::nullopt;
  return f;
}

}  // namespace

bool FoldLine(std::string_view text, const std::vector<std::string>* only, Usage* out) {
  return FoldLineAs(text, only, out, /*parse_always=*/false);
}

bool FoldLineAs(std::string_view text, const std::vector<std::string>* only, Usage* out,
                bool parse_always) {
  if (only) {
    auto quick = QuickItem(text);
    if (quick && std::find(only->begin(), only->end(), *quick) == only->end()) return true;
  }
  std::optional<Use> use;
  std::string item;
  std::optional<text::TimePoint> at;
  if (auto own = parse_always ? std::nullopt : OwnLine(text)) {
    use = ParseUse(own->use);
    item = std::string(own->item);
    at = text::ParseIso(own->at);
  } else {
    json::Limits limits;
    limits.max_bytes = kMaxUsageLine;
    limits.max_depth = 4;
    auto j = json::Parse(text, limits);
    if (j && j->is_object()) {
      use = ParseUse(json::StringOr(*j, "use", ""));
      item = json::StringOr(*j, "item", "");
      at = text::ParseIso(json::StringOr(*j, "at", ""));
    }
  }
  if (!use || item.empty() || !at) return false;
  if (only && std::find(only->begin(), only->end(), item) == only->end()) return true;
  ItemUsage& u = out->items[item];
  const int64_t secs =
      std::chrono::duration_cast<std::chrono::seconds>(at->time_since_epoch()).count();
  switch (*use) {
    case Use::kShown:
      ++u.shown;
      break;
    case Use::kOpened:
      ++u.opened;
      break;
    case Use::kPin:
      u.pinned = true;
      break;
    case Use::kUnpin:
      u.pinned = false;
      break;
  }
  if (*use == Use::kShown || *use == Use::kOpened) u.last_used = std::max(u.last_used, secs);
  return true;
}

namespace {

FoldKey KeyOf(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size)};
}

}  // namespace

Result<Usage> ReadUsage(const store::Store& store, const std::vector<std::string>* only) {
  Usage out;
  auto fd = fs::OpenBeneath(store.dir(), kUsageFile, O_RDONLY);
  if (!fd && fd.error().code == ErrorCode::kNotFound) return out;
  if (!fd) return tl::unexpected(fd.error());
  const std::string path = fs::Join(store.dir(), kUsageFile);
  struct stat st;
  if (::fstat(fd->get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  // The fold up to its offset, then the lines past it. The offset is a line
  // start: the fold was made of whole lines.
  uint64_t from = 0;
  if (auto fold = fs::ReadFileBeneath(store.dir(), kUsageFold, fs::Kind::kState)) {
    from = ParseFold(*fold, KeyOf(st), only, &out);
  }
  log::StreamLimits stream;
  stream.max_line_bytes = kMaxUsageLine;
  stream.chunk_bytes = 64 * 1024;
  auto visit = [&](const log::StreamedLine& l) {
    ++out.lines;
    if (l.oversized) ++out.bad_lines;
    if (l.oversized || l.text.empty()) return true;
    if (!FoldLine(l.text, only, &out)) ++out.bad_lines;
    return true;
  };
  LORE_ASSIGN(
      log::StreamEnd end,
      log::StreamLines(fd->get(), from, 1, static_cast<uint64_t>(st.st_size), path, visit, stream));
  out.folded_through = end.end;
  return out;
}

Status WriteUsageFold(const store::Store& store) {
  auto fd = fs::OpenBeneath(store.dir(), kUsageFile, O_RDONLY);
  if (!fd && fd.error().code == ErrorCode::kNotFound) return Ok();
  if (!fd) return tl::unexpected(fd.error());
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", fs::Join(store.dir(), kUsageFile)));
  }
  LORE_ASSIGN(Usage u, ReadUsage(store));
  FoldKey key = KeyOf(st);
  key.offset = u.folded_through;
  const std::string text = RenderFold(u, key);
  LORE_TRY(fs::MakeDirs(fs::Join(store.dir(), "recall")));
  return fs::WriteFileAtomic(fs::Join(store.dir(), kUsageFold), text);
}

}  // namespace lore::recall
