#include "consolidate/bullets.h"

#include "lore/text/utf8.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::consolidate::detail {
namespace {

bool IsHeading(const std::string& line) {
  return line.rfind("# ", 0) == 0 || line.rfind("## ", 0) == 0;
}
bool IsBlank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

}  // namespace

std::string OneLine(std::string_view s) { return text::FoldSpace(s, SIZE_MAX, " \t\r\n"); }

std::string Cut(std::string_view s, size_t max) {
  if (text::CodePointCount(s) <= max) return std::string(s);
  return std::string(text::PrefixCodePoints(s, max - 1)) + "…";
}

BulletBody::BulletBody(std::string_view body) {
  for (std::string_view raw : text::Lines(body)) {
    std::string line(raw);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines_.push_back(std::move(line));
  }
}

std::pair<long, long> BulletBody::Span(std::string_view section) const {
  std::string header = "## " + std::string(section);
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i] != header) continue;
    size_t end = i + 1;
    while (end < lines_.size() && !IsHeading(lines_[end])) ++end;
    return {static_cast<long>(i), static_cast<long>(end)};
  }
  return {-1, -1};
}

long BulletBody::Find(std::string_view section, std::string_view prefix) const {
  auto [h, e] = Span(section);
  for (long i = h + 1; h >= 0 && i < e; ++i) {
    if (lines_[static_cast<size_t>(i)].rfind(prefix, 0) == 0) return i;
  }
  return -1;
}

bool BulletBody::Has(std::string_view section, std::string_view line) const {
  auto [h, e] = Span(section);
  for (long i = h + 1; h >= 0 && i < e; ++i) {
    if (lines_[static_cast<size_t>(i)] == line) return true;
  }
  return false;
}

void BulletBody::Add(std::string_view section, std::string line) {
  auto [h, e] = Span(section);
  if (h < 0) {
    while (!lines_.empty() && IsBlank(lines_.back())) lines_.pop_back();
    if (!lines_.empty()) lines_.emplace_back();
    lines_.push_back("## " + std::string(section));
    lines_.emplace_back();
    lines_.push_back(std::move(line));
    return;
  }
  long last = h;
  for (long i = h + 1; i < e; ++i) {
    if (!IsBlank(lines_[static_cast<size_t>(i)])) last = i;
  }
  if (last == h) {
    lines_.insert(lines_.begin() + h + 1, std::string());
    last = h + 1;
  }
  lines_.insert(lines_.begin() + last + 1, std::move(line));
}

bool BulletBody::DropOldest(std::string_view section) {
  auto [h, e] = Span(section);
  for (long i = h + 1; h >= 0 && i < e; ++i) {
    if (lines_[static_cast<size_t>(i)].rfind("- ", 0) == 0) {
      lines_.erase(lines_.begin() + i);
      return true;
    }
  }
  return false;
}

std::string BulletBody::Render() const {
  std::string out;
  for (const auto& l : lines_) {
    out += l;
    out += '\n';
  }
  return out;
}

size_t BulletBody::Chars() const { return text::CodePointCount(Render()); }

}  // namespace lore::consolidate::detail
