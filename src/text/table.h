// Tables compiled into lore as text: sorted lines "<key>\t<value…>\n",
// searched in place (no start-up parsing, no allocation).
#pragma once

#include <string_view>

namespace lore::text {

// The line of `table` whose key (the text before its first tab, or the whole
// line) is `key`, without its newline; empty when there is none. `table` is
// sorted by key (byte order); found by binary search.
std::string_view FindTableLine(std::string_view table, std::string_view key);

}  // namespace lore::text
