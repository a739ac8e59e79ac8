// Splitting a shell command line into words the way a POSIX shell would
// (quotes, backslashes, $'…'), keeping where each word sits in the original
// text, so that parts can be found and replaced without re-quoting.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lore::hook {

struct Word {
  size_t begin = 0;  // span in the original command
  size_t end = 0;
  std::string value;  // the word with quoting removed
  bool op = false;    // a control operator (; & | && || ( ) newline) or redirection
};

// The words and operators of `command`. An unterminated quote runs to the end.
std::vector<Word> SplitWords(std::string_view command);

}  // namespace lore::hook
