// What a file-writing call defined: the names its new text introduces, so that
// "where is the retry logic?" finds the edit that wrote `def get_page` a week
// later, though the session log keeps only the first bytes of what was written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lore::activity {

// The names `text` (the new text an Edit or Write call gave the file `path`)
// defines, in order, each once, joined with ", ", at most `max_bytes`:
// functions, methods, classes, types and modules of the common languages
// (`def get_page`, `fn to_local`, `func (s *Store) Get`, `export function
// parse`, `class Cache`, `defmodule Ledgerly.Money`), tests named by a string
// (`test "splits the remainder"`, `it("retries a 429")`) or a macro
// (`TEST(Battery, Percent)`), SQL tables and indexes, environment variables
// set at a line's start (`R2_ACCOUNT_ID=`); for a Markdown file, its
// headings, the variables its text names in code spans (`R2_BUCKET`) and what
// its fenced blocks define. Verbatim words of `text` only;
// "" when it defines nothing.
std::string DefinedNames(std::string_view path, std::string_view text, size_t max_bytes);

}  // namespace lore::activity
