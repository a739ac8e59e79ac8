#include "lore/log/jsonl.h"

#include <cstring>

#include "lore/json/reader.h"
#include "lore/text/utf8.h"

namespace lore::log {

bool LineScanner::Next(Line* line) {
  if (pos_ >= data_.size()) return false;
  const char* start = data_.data() + pos_;
  const size_t left = data_.size() - pos_;
  const void* nl = std::memchr(start, '\n', left);
  size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : left;
  line->number = next_number_++;
  line->text = std::string_view(start, len);
  line->has_newline = nl != nullptr;
  pos_ += len + (nl ? 1 : 0);
  return true;
}

bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

std::optional<std::string> CheckObjectLine(const Line& line) {
  std::string_view t = line.text;
  if (!text::IsValidUtf8(t)) return "invalid UTF-8";
  size_t first = t.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return std::nullopt;  // blank
  static const json::Limits limits = json::ForeignLogLine();
  if (auto ok = json::Check(t, limits); !ok) {
    if (!line.has_newline) return "last line cut off (not valid JSON, no newline)";
    return ok.error().what;
  }
  if (t[first] != '{') return "a JSON value that is not an object";
  return std::nullopt;
}

ScanResult ScanObjects(std::string_view data, size_t max_problems) {
  ScanResult r;
  LineScanner scanner(data);
  Line line;
  while (scanner.Next(&line)) {
    ++r.lines;
    r.ends_with_newline = line.has_newline;
    if (IsBlank(line.text)) continue;
    if (auto problem = CheckObjectLine(line)) {
      if (r.problems.size() < max_problems) r.problems.push_back({line.number, *problem});
    } else {
      ++r.objects;
    }
  }
  return r;
}

}  // namespace lore::log
