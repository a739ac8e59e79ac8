#include "activity/about.h"

#include <array>
#include <optional>
#include <vector>

#include "activity/excerpt.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

// The line number a line of a Read result starts with ("    12→text",
// "12\ttext"): its digits, and where its text begins; nullopt when it has none.
struct Numbered {
  std::string_view number;
  size_t text_at;
};
std::optional<Numbered> LineNumber(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  const size_t digits = i;
  while (i < line.size() && i - digits < 9 && line[i] >= '0' && line[i] <= '9') ++i;
  if (i == digits) return std::nullopt;
  if (line.substr(i).starts_with("\xe2\x86\x92"))
    return Numbered{line.substr(digits, i - digits), i + 3};  // →
  if (i < line.size() && line[i] == '\t') return Numbered{line.substr(digits, i - digits), i + 1};
  return std::nullopt;
}

// A line of a Read result without its line number.
std::string_view Unnumbered(std::string_view line) {
  auto n = LineNumber(line);
  return n ? line.substr(n->text_at) : line;
}

// True when a Read result starts past the file's first line ("    28→…", a read
// with an offset): what it shows is no opening.
bool StartsPastTheTop(std::string_view contents) {
  auto n = LineNumber(contents.substr(0, contents.find('\n')));
  return n && n->number != "1";
}

// Words that speak to an agent rather than describe a project.
bool SpeaksToAnAgent(std::string_view text) {
  const std::string low = text::AsciiLower(text);
  static constexpr std::array<std::string_view, 9> kSigns = {
      "ignore previous", "ignore all previous", "ignore prior",   "ignore the above",
      "ai assistant",    "coding agent",        "language model", "| sh",
      "| bash"};
  for (std::string_view s : kSigns) {
    if (low.find(s) != std::string::npos) return true;
  }
  return false;
}

// The first paragraphs of prose of a Markdown or plain-text file, read from its
// first line.
std::string Prose(std::string_view contents) {
  if (StartsPastTheTop(contents)) return "";  // a README read from its middle
  std::vector<std::string> paragraphs;
  std::string current;
  bool comment = false, fence = false, front = false;
  size_t n = 0;
  auto flush = [&] {
    if (!current.empty() && !SpeaksToAnAgent(current)) paragraphs.push_back(current);
    current.clear();
  };
  for (std::string_view raw : text::Lines(contents)) {
    const std::string_view unnumbered = Unnumbered(raw);
    std::string_view line = text::Trim(unnumbered);
    if (n++ == 0 && line == "---") {  // YAML front matter
      front = true;
      continue;
    }
    if (front) {
      if (line == "---") front = false;
      continue;
    }
    if (line.starts_with("```") || line.starts_with("~~~")) {
      flush();
      fence = !fence;
      continue;
    }
    if (fence) continue;
    // An indented block is code ("    npm install"), not the project's words.
    if (!line.empty() && (unnumbered.starts_with("    ") || unnumbered.starts_with("\t"))) {
      flush();
      if (!paragraphs.empty()) break;
      continue;
    }
    if (comment || line.starts_with("<!--")) {
      flush();
      comment = line.find("-->") == std::string_view::npos;
      continue;
    }
    const bool heading = line.starts_with("#") || line.starts_with("===") ||
                         line.starts_with("---") || line.starts_with("***");
    const bool markup = line.starts_with("<") || line.starts_with("[!") || line.starts_with("![") ||
                        line.starts_with("[![") || line.starts_with("|") || line.starts_with(">");
    const bool item = line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ");
    if (line.empty() || heading || markup || item) {
      flush();
      // The opening prose ends at the first section's heading ("## Develop").
      if (paragraphs.size() >= 2 || ((item || heading) && !paragraphs.empty())) break;
      continue;
    }
    current += (current.empty() ? "" : " ") + std::string(line);
  }
  flush();
  std::string out;
  for (const auto& p : paragraphs) {
    if (!out.empty() && out.size() + p.size() > kMaxAboutBytes) break;
    out += (out.empty() ? "" : " ") + p;
  }
  return out;
}

// The value of a manifest's description: `"description": "…"` (JSON),
// `description = "…"` (TOML), `description: "…"` (mix.exs).
std::string ManifestDescription(std::string_view contents) {
  for (std::string_view raw : text::Lines(contents)) {
    std::string_view line = text::Trim(Unnumbered(raw));
    size_t key = line.find("description");
    if (key == std::string_view::npos || key > 2) continue;
    size_t after = key + 11;
    if (after < line.size() && line[after] == '"') ++after;  // the JSON key's own quote
    size_t open = line.find('"', after);
    if (open == std::string_view::npos) continue;
    std::string_view between = line.substr(after, open - after);
    if (between.find_first_not_of(" \t\":=") != std::string_view::npos) continue;
    size_t close = line.find('"', open + 1);
    while (close != std::string_view::npos && line[close - 1] == '\\')
      close = line.find('"', close + 1);
    if (close == std::string_view::npos || close == open + 1) continue;
    std::string value(line.substr(open + 1, close - open - 1));
    if (SpeaksToAnAgent(value)) return "";
    return value;
  }
  return "";
}

bool IsManifest(std::string_view low) {
  return low == "package.json" || low == "cargo.toml" || low == "pyproject.toml" ||
         low == "mix.exs" || low == "composer.json" || low == "setup.cfg";
}

bool IsProse(std::string_view low) {
  for (std::string_view stem : {"readme", "claude.md", "agents.md"}) {
    if (low.starts_with(stem)) return true;
  }
  return false;
}

}  // namespace

std::string DescribingFile(std::string_view tool, std::string_view detail) {
  const std::string path = DescribingPath(tool, detail);
  return path.empty() ? "" : std::string(FileNameOf(path));
}

std::string DescribingPath(std::string_view tool, std::string_view detail) {
  std::string_view path;
  if (tool == "Read") {
    path = text::Trim(detail);
  } else if (tool == "Bash") {
    std::string_view c = text::Trim(detail.substr(0, detail.find('\n')));
    if (c.find_first_of(";&|<>$`") != std::string_view::npos) return "";
    size_t sp = c.find(' ');
    if (sp == std::string_view::npos) return "";
    std::string_view program = c.substr(0, sp);
    if (program != "cat" && program != "head" && program != "bat" && program != "less") return "";
    path = text::Trim(c.substr(sp + 1));
    while (path.starts_with("-")) {  // head -50 README.md
      size_t next = path.find(' ');
      if (next == std::string_view::npos) return "";
      path = text::Trim(path.substr(next + 1));
    }
    if (path.size() >= 2 && (path.front() == '"' || path.front() == '\'') &&
        path.back() == path.front())
      path = path.substr(1, path.size() - 2);
    else if (path.find(' ') != std::string_view::npos)
      return "";
  } else {
    return "";
  }
  const std::string low = text::AsciiLower(FileNameOf(path));
  if (IsManifest(low) || IsProse(low)) return std::string(path);
  return "";
}

std::string AboutProject(std::string_view name, std::string_view contents) {
  const std::string low = text::AsciiLower(name);
  std::string about = IsManifest(low) ? ManifestDescription(contents)
                      : IsProse(low)  ? Prose(contents)
                                      : "";
  return Excerpt(about, kMaxAboutBytes);
}

}  // namespace lore::activity
