#include "lore/capture/capture.h"

#include <nlohmann/json.hpp>

#include "lore/text/utf8.h"

namespace lore::capture {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kStdin = "<stdin>";

int64_t LineAt(std::string_view s, size_t offset) {
  int64_t line = 1;
  for (size_t i = 0; i < offset && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

}  // namespace

Result<std::string> MakeRecordLine(std::string_view input, Kind kind, text::TimePoint now) {
  const std::string repair = "send exactly one JSON object, encoded as UTF-8, on standard input";
  if (size_t bad = 0; !text::IsValidUtf8(input, &bad)) {
    return Fail(ErrorCode::kInvalidInput, "invalid UTF-8 on standard input", kStdin,
                LineAt(input, bad), repair);
  }
  Json record = Json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded()) {
    // Parse again for the position of the error (exceptions stay in here).
    int64_t line = 0;
    std::string detail = "not valid JSON";
    try {
      Json unused = Json::parse(input);
      (void)unused;
    } catch (const Json::parse_error& e) {
      line = LineAt(input, e.byte > 0 ? e.byte - 1 : 0);
    }
    if (input.find_first_not_of(" \t\r\n") == std::string_view::npos) detail = "empty";
    return Fail(ErrorCode::kInvalidInput, "standard input is " + detail, kStdin, line, repair);
  }
  if (!record.is_object()) {
    return Fail(ErrorCode::kInvalidInput, "standard input is JSON but not an object", kStdin, 1,
                repair);
  }
  record["kind"] = kind == Kind::kReview ? "review" : "slicing";
  record["recorded_at"] = text::UtcSeconds(now);
  return record.dump(-1, ' ', /*ensure_ascii=*/false, Json::error_handler_t::strict);
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
           ", \"raw_path\": " + str(store.raw_path()) + ", \"index_path\": " +
           str(store.index_path()) + ", \"has_content\": " + (has_content ? "true" : "false") +
           "}";
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
