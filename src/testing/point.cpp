#include "lore/testing/point.h"

#include <string>

namespace lore::testing {

namespace internal {
constinit HookFn installed_hook = nullptr;
}  // namespace internal

HookFn SetHook(HookFn fn) {
  HookFn previous = internal::installed_hook;
  internal::installed_hook = fn;
  return previous;
}

Status NumberedPoint(std::string_view prefix, int64_t n) {
  if (!Active()) return Ok();
  return Point(std::string(prefix) + std::to_string(n));
}

}  // namespace lore::testing
