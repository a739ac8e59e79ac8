// The last-resort handler of each executable's main: anything unexpected
// (an exception that escaped, std::terminate from any thread, running out of
// memory) becomes one line on stderr and a documented exit code, never an
// abort with a core dump and a C++ message.
//
//   70  internal error (a bug in lore: report it)
//   0   for `lore hook ...`: hooks always exit 0 (a warning line is printed)
#pragma once

#include <unistd.h>

#include <exception>
#include <new>
#include <string>

namespace lore::cli {

inline constexpr int kExitInternal = 70;

namespace guard_detail {
inline const char* g_prefix = "lore: ";
inline int g_code = kExitInternal;

inline void WriteLine(const std::string& what) {
  std::string line = std::string(g_prefix) + "internal error: " + what +
                     "; report this bug (nothing was written after the failure)";
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  line += '\n';
  ssize_t unused = ::write(STDERR_FILENO, line.data(), line.size());
  (void)unused;
}

inline std::string Describe(std::exception_ptr p) {
  if (!p) return "terminated without an exception";
  try {
    std::rethrow_exception(p);
  } catch (const std::bad_alloc&) {
    return "out of memory";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown exception";
  }
}

[[noreturn]] inline void OnTerminate() {
  WriteLine(Describe(std::current_exception()));
  ::_exit(g_code);
}
}  // namespace guard_detail

// Runs `body()` (returning the exit code) under the last-resort handler.
template <class F>
int RunGuarded(const char* prefix, int failure_code, F&& body) {
  guard_detail::g_prefix = prefix;
  guard_detail::g_code = failure_code;
  std::set_terminate(guard_detail::OnTerminate);
  try {
    return body();
  } catch (...) {
    guard_detail::WriteLine(guard_detail::Describe(std::current_exception()));
    return failure_code;
  }
}

}  // namespace lore::cli
