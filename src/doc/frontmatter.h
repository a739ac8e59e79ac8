// Splitting a Markdown file into its frontmatter block and body.
//
// A file with frontmatter starts with a line "---" and has a later line "---"
// closing it. The YAML between is returned unparsed (doc/record.h parses it).
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::doc {

struct FrontmatterSplit {
  std::string_view yaml;  // between the two "---" lines, with its final newline
  std::string_view body;  // everything after the closing line
  int yaml_line = 2;      // 1-based line where `yaml` starts
  int body_line = 0;      // 1-based line where `body` starts
};

// Splits `text` (from file `path`, used in errors). Errors name the line:
// line 1 when the opening "---" is missing, the opening line when nothing
// closes it. Also rejects invalid UTF-8.
Result<FrontmatterSplit> SplitFrontmatter(std::string_view text, const std::string& path);

// Where the body starts when `text` opens with a line "---\n" and a later
// "\n---\n" closes it, else 0. No UTF-8 check, no "\r\n" fence, no error: for
// showing a text without its frontmatter, never for reading a record (that is
// SplitFrontmatter's).
size_t PlainBodyStart(std::string_view text);

// True when `body` holds anything but white space.
bool HasContent(std::string_view body);

}  // namespace lore::doc
