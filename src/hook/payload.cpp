#include "hook/payload.h"

namespace lore::hook {

json::Limits PayloadLimits() {
  json::Limits l;
  l.max_bytes = size_t{16} << 20;
  l.max_depth = 64;
  return l;
}

}  // namespace lore::hook
