#include "teamsync/lines.h"

#include <nlohmann/json.hpp>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/teamsync/team.h"

namespace lore::teamsync {
namespace {

constexpr const char* kStateRepair =
    "remove it: the next 'lore sync' starts over and inserts nothing twice";

Result<SortedJson> LoadObject(const std::string& path) {
  if (!fs::Exists(path)) return SortedJson::object();
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  json::Source src{path, 1, kStateRepair};
  LORE_ASSIGN(SortedJson v, json::Parse(text, json::Limits{}, src));
  if (!v.is_object()) return Fail(ErrorCode::kCorrupt, "not a JSON object", path, 1, kStateRepair);
  return v;
}

Status Save(const std::string& path, const SortedJson& v) {
  LORE_TRY(fs::MakeDirs(fs::Dirname(path), 0700));
  return fs::WriteFileAtomic(path, v.dump(1) + "\n");
}

}  // namespace

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

int64_t SplitComplete(std::string_view data, int64_t base, std::vector<LineAt>* out) {
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    if (nl == std::string_view::npos) break;
    out->push_back(LineAt{base + static_cast<int64_t>(pos), data.substr(pos, nl - pos)});
    pos = nl + 1;
  }
  return base + static_cast<int64_t>(pos);
}

bool Rewritten(const LogCursor& c, int64_t size, std::string_view before) {
  if (size < c.offset) return true;
  return Hex(before) != c.tail_hex;
}

Result<PushState> LoadPushState(const std::string& path) {
  LORE_ASSIGN(SortedJson v, LoadObject(path));
  PushState out;
  for (const auto& [log, c] : v.items()) {
    auto gen = json::Int(c, "gen", 0);
    auto off = json::Int(c, "offset", 0);
    auto tail = json::String(c, "tail");
    if (!IsSyncedLog(log) || !gen || !off || !tail) {
      return Fail(ErrorCode::kCorrupt, "a push cursor is not {gen, offset, tail}", path, 1,
                  kStateRepair);
    }
    out[log] = LogCursor{*gen, *off, *tail};
  }
  return out;
}

Status SavePushState(const std::string& path, const PushState& state) {
  SortedJson v = SortedJson::object();
  for (const auto& [log, c] : state)
    v[log] = {{"gen", c.gen}, {"offset", c.offset}, {"tail", c.tail_hex}};
  return Save(path, v);
}

Result<PullState> LoadPullState(const std::string& path) {
  LORE_ASSIGN(SortedJson v, LoadObject(path));
  PullState out;
  for (const auto& [machine, logs] : v.items()) {
    if (!IsMachineId(machine) || !logs.is_object()) {
      return Fail(ErrorCode::kCorrupt, "a pull state is not {machine: {log: gen}}", path, 1,
                  kStateRepair);
    }
    for (const auto& [log, gen] : logs.items()) {
      auto g = json::AsInt(gen, 0);
      if (!IsSyncedLog(log) || !g) {
        return Fail(ErrorCode::kCorrupt, "a pull state is not {machine: {log: gen}}", path, 1,
                    kStateRepair);
      }
      out[machine][log] = *g;
    }
  }
  return out;
}

Status SavePullState(const std::string& path, const PullState& state) {
  SortedJson v = SortedJson::object();
  for (const auto& [machine, logs] : state) {
    for (const auto& [log, gen] : logs) v[machine][log] = gen;
  }
  return Save(path, v);
}

void AppendCopyBytea(std::string_view bytes, std::string* out) {
  // COPY's text format reads "\\x<hex>" as the bytea input "\x<hex>".
  out->append("\\\\x");
  out->append(Hex(bytes));
}

}  // namespace lore::teamsync
