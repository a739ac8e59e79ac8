#include "lore/learnings/file.h"

#include "lore/fs/fd.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/store/layout.h"
#include "text/trim.h"

namespace lore::learnings {

FileScan ScanLearnings(std::string bytes) {
  FileScan scan;
  scan.bytes = std::move(bytes);
  proposals::ScanLines(scan.bytes, [&](proposals::ScannedLine& scanned) {
    Line l;
    l.span = scanned.span;
    l.blank = scanned.blank;
    if (const auto& j = scanned.object) {
      l.object = true;
      l.facts = FactsOf(*j);
      if (auto it = j->find("confirmed_by"); it != j->end() && it->is_array()) {
        for (const auto& v : *it)
          if (v.is_string()) l.confirmed_by.push_back(v.get<std::string>());
      }
    } else if (!l.blank) {
      ++scan.malformed;
    }
    scan.lines.push_back(std::move(l));
  });
  return scan;
}

Result<FileScan> ReadLearnings(const std::string& path) {
  LORE_TRY(fs::RefuseSymlink(path, store::kLearningsFile));
  auto text = fs::ReadFile(path, fs::Kind::kLog);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return FileScan{};
    return tl::unexpected(text.error());
  }
  return ScanLearnings(std::move(*text));
}

std::optional<Json> ParseLine(const FileScan& scan, const Line& line) {
  if (!line.object) return std::nullopt;
  std::string_view text = text::TrimEnd(scan.Text(line.span), "\r\n");
  auto j = json::ParseOrdered(text, proposals::QueueLineLimits());
  if (!j || !j->is_object()) return std::nullopt;
  return std::move(*j);
}

Result<std::set<std::string>> SettledIds(const std::string& path) {
  LORE_ASSIGN(FileScan scan, ReadLearnings(path));
  std::set<std::string> ids;
  for (const auto& l : scan.lines) {
    if (!l.facts.id.empty()) ids.insert(l.facts.id);
    ids.insert(l.confirmed_by.begin(), l.confirmed_by.end());
  }
  return ids;
}

}  // namespace lore::learnings
