#include "lore/capture/capture.h"

#include <nlohmann/json.hpp>

#include "json/compact.h"
#include "lore/json/value.h"
#include "lore/text/utf8.h"
#include "redact/json.h"

namespace lore::capture {
namespace {

constexpr const char* kStdin = "<stdin>";

int64_t LineAt(std::string_view s, size_t offset) {
  int64_t line = 1;
  for (size_t i = 0; i < offset && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

}  // namespace

json::Limits CaptureLimits() {
  json::Limits l;
  l.max_bytes = kMaxRecordBytes;
  l.max_depth = 128;
  return l;
}

Result<std::string> MakeRecordLine(std::string_view input, Kind kind, text::TimePoint now) {
  const std::string repair = "send exactly one JSON object, encoded as UTF-8, on standard input";
  if (size_t bad = 0; !text::IsValidUtf8(input, &bad)) {
    return Fail(ErrorCode::kInvalidInput, "invalid UTF-8 on standard input", kStdin,
                LineAt(input, bad), repair);
  }
  if (input.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Fail(ErrorCode::kInvalidInput, "standard input is empty", kStdin, 0, repair);
  }
  // The caller's bytes are kept: numbers as written, keys in order and spelling.
  std::vector<json::Member> set = {
      {"kind", json::Quote(kind == Kind::kReview ? "review" : "slicing")},
      {"recorded_at", json::Quote(text::UtcSeconds(now))}};
  // Private spans and secrets never reach raw.jsonl: keys and string values
  // are cleaned (docs/secrets.md) before the line is appended.
  const json::StringFilter clean = redact::CleanJsonString;
  auto line = json::CompactObjectWith(input, CaptureLimits(), set, {kStdin, 1, repair}, &clean);
  if (!line) {
    Error e = line.error();
    e.what = e.what.rfind("JSON but not", 0) == 0 ? "standard input is JSON but not an object"
                                                  : "standard input is " + e.what;
    return tl::unexpected(std::move(e));
  }
  return std::move(*line);
}

Result<Appended> Append(const store::Store& store, std::string_view input, Kind kind,
                        text::TimePoint now) {
  LORE_ASSIGN(std::string line, MakeRecordLine(input, kind, now));
  LORE_TRY(store.Ensure(now, store::RawCheck::kSkip));
  LORE_ASSIGN(log::AppendResult r, log::Append(store.raw_log(), line));
  return Appended{r.line};
}

Result<std::string> EnsureReport(const store::Store& store, ReportStyle style) {
  LORE_ASSIGN(bool has_content, store.HasContent());
  if (style == ReportStyle::kPython) {
    auto str = [](const std::string& s) {
      return Json(s).dump(-1, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace);
    };
    return "{\"key\": " + str(store.key()) + ", \"root\": " + str(store.dir()) +
           ", \"raw_path\": " + str(store.raw_path()) +
           ", \"index_path\": " + str(store.index_path()) +
           ", \"has_content\": " + (has_content ? "true" : "false") + "}";
  }
  Json out;
  out["key"] = store.key();
  out["root"] = store.dir();
  out["raw_path"] = store.raw_path();
  out["index_path"] = store.index_path();
  out["has_content"] = has_content;
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace lore::capture
