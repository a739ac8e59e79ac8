#include "lore/consolidate/test_hook.h"

namespace lore::consolidate {

namespace internal {
constinit TestHookFn installed_test_hook = nullptr;
}  // namespace internal

void SetTestHook(TestHookFn fn) { internal::installed_test_hook = fn; }

}  // namespace lore::consolidate
