#include "distill/markdown.h"

#include "lore/text/utf8.h"

namespace lore::distill {
namespace {

// Replaces invalid UTF-8 sequences by U+FFFD.
std::string ValidUtf8(std::string_view s) {
  std::string out;
  while (!s.empty()) {
    size_t bad = 0;
    if (text::IsValidUtf8(s, &bad)) {
      out.append(s);
      break;
    }
    out.append(s.substr(0, bad));
    out += "\xEF\xBF\xBD";
    s.remove_prefix(bad + 1);
  }
  return out;
}

}  // namespace

std::string OneLine(std::string_view s, size_t max_chars) {
  std::string clean;
  if (!text::IsValidUtf8(s)) {
    clean = ValidUtf8(s);
    s = clean;
  }
  std::string out(s.size(), '\0');
  size_t n = 0;
  bool space = false;
  for (unsigned char c : s) {
    if (c <= 0x20 || c == 0x7f) {  // white space and control characters
      space = n > 0;
      continue;
    }
    if (space) out[n++] = ' ';
    space = false;
    out[n++] = static_cast<char>(c);
  }
  out.resize(n);
  if (n <= max_chars || text::CodePointCount(out) <= max_chars) return out;
  if (max_chars == 0) return {};
  std::string cut(text::PrefixCodePoints(out, max_chars - 1));
  while (!cut.empty() && cut.back() == ' ') cut.pop_back();
  return cut + "…";
}

std::string Cell(std::string_view s, size_t max_chars) {
  std::string line = OneLine(s, max_chars);
  std::string out;
  for (char c : line) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string YamlScalar(std::string_view s) {
  bool plain = !s.empty() && s.front() != ' ' && s.back() != ' ';
  static constexpr std::string_view kLead = "-?:,[]{}#&*!|>'\"%@`";
  if (plain && kLead.find(s.front()) != std::string_view::npos) plain = false;
  if (plain && (s.find(": ") != std::string_view::npos || s.find(" #") != std::string_view::npos ||
                s.back() == ':')) {
    plain = false;
  }
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) plain = false;
  }
  static const char* kReserved[] = {"true", "false", "yes",   "no",    "on",  "off", "null",
                                    "~",    "True",  "False", "Yes",   "No",  "On",  "Off",
                                    "Null", "NULL",  "TRUE",  "FALSE", "YES", "NO",  "ON",
                                    "OFF",  "y",     "n",     "Y",     "N"};
  for (const char* r : kReserved) {
    if (s == r) plain = false;
  }
  if (plain) return std::string(s);
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Frontmatter(std::string_view title, std::string_view updated,
                        const std::vector<std::string>& tags) {
  std::string out =
      "---\ntitle: " + YamlScalar(title) + "\nupdated: " + std::string(updated) + "\ntags: [";
  for (size_t i = 0; i < tags.size(); ++i) {
    if (i) out += ", ";
    out += YamlScalar(tags[i]);
  }
  return out + "]\n---\n";
}

std::string Code(std::string_view s) {
  std::string out = "`";
  for (char c : OneLine(s, 200)) out += c == '`' ? '\'' : c;
  return out + "`";
}

std::string GroupKey(std::string_view s) {
  std::string line = OneLine(s, 100000);
  for (char& c : line) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  while (!line.empty() && std::string_view(".!;:, ").find(line.back()) != std::string_view::npos) {
    line.pop_back();
  }
  return line;
}

std::string Percent(int64_t part, int64_t whole) {
  if (whole <= 0) return "0%";
  return std::to_string((part * 100 + whole / 2) / whole) + "%";
}

}  // namespace lore::distill
