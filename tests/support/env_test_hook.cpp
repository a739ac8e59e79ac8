// The test hook of the test builds: reads LORE_TEST_HOOK (see
// include/lore/testing/point.h, the catalogue of points). Linked into `lore-test` and the unit
// tests, never into the shipped binaries; installs itself before main().
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "lore/testing/point.h"

namespace lore::testing {
namespace {

void Act(std::string_view point, std::string_view action, Status* out) {
  if (action == "crash") {
    ::kill(::getpid(), SIGKILL);
    ::pause();
  }
  if (action == "fail") {
    *out = Fail(ErrorCode::kInternal, "test hook failure at " + std::string(point), "", 0,
                "unset LORE_TEST_HOOK");
  }
  if (action.substr(0, 5) == "wait=") {  // until the file exists (two minutes at most)
    std::string file(action.substr(5));
    auto end = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    struct stat st;
    while (::stat(file.c_str(), &st) != 0 && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (action.substr(0, 6) == "pause=") {
    long ms = std::strtol(std::string(action.substr(6)).c_str(), nullptr, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }
}

Status EnvTestHook(std::string_view point) {
  const char* env = std::getenv("LORE_TEST_HOOK");
  if (!env || !*env) return Ok();
  Status out = Ok();
  std::string_view spec = env;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    size_t colon = item.find(':');
    if (colon == std::string_view::npos || item.substr(0, colon) != point) continue;
    Act(point, item.substr(colon + 1), &out);
  }
  return out;
}

[[maybe_unused]] const bool kInstalled = (SetHook(&EnvTestHook), true);

}  // namespace
}  // namespace lore::testing
