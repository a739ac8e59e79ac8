// Where a key stands in a JSON text, for errors that name file:line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lore::agent_setup {

// The 1-based line of the first member whose path of object keys from the
// root is `keys` (arrays on the way match any element), or 0 when there is
// none or the text is not JSON. Keys written with escapes never match.
int64_t LineOfKey(std::string_view text, const std::vector<std::string>& keys);

}  // namespace lore::agent_setup
