#include "doc/frontmatter.h"

#include "lore/text/utf8.h"

namespace lore::doc {
namespace {

bool IsFence(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line == "---";
}

int LineOfOffset(std::string_view text, size_t offset) {
  int line = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

}  // namespace

Result<FrontmatterSplit> SplitFrontmatter(std::string_view text, const std::string& path) {
  const std::string repair =
      "the file must start with a line '---', then the YAML fields, then a line '---'";
  if (size_t bad = 0; !text::IsValidUtf8(text, &bad)) {
    return Fail(ErrorCode::kCorrupt, "invalid UTF-8", path, LineOfOffset(text, bad),
                "re-save the file as UTF-8");
  }
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
    text.remove_prefix(3);  // a byte-order mark is tolerated
  }
  size_t nl = text.find('\n');
  if (!IsFence(text.substr(0, nl))) {
    return Fail(ErrorCode::kCorrupt, "frontmatter does not open with a '---' line", path, 1,
                repair);
  }
  if (nl == std::string_view::npos) {
    return Fail(ErrorCode::kCorrupt, "frontmatter is not closed by a '---' line", path, 1, repair);
  }
  size_t pos = nl + 1;
  int line = 2;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view l = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    if (IsFence(l)) {
      FrontmatterSplit s;
      s.yaml = text.substr(nl + 1, pos - nl - 1);
      s.body = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      s.yaml_line = 2;
      s.body_line = line + 1;
      return s;
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
    ++line;
  }
  return Fail(ErrorCode::kCorrupt, "frontmatter is not closed by a '---' line", path, 1, repair);
}

size_t PlainBodyStart(std::string_view text) {
  if (text.substr(0, 4) != "---\n") return 0;
  size_t end = text.find("\n---\n", 3);
  return end == std::string_view::npos ? 0 : end + 5;
}

bool HasContent(std::string_view body) {
  return body.find_first_not_of(" \t\r\n\v\f") != std::string_view::npos;
}

}  // namespace lore::doc
