// The writing half of the one reporter (lore/app/report.h formats the line):
// every executable (lore, lore-llm, lore-team, lore-archive) reports errors
// and warnings through these, so that each reads the same and gives the same
// exit code. Header-only: the other executables do not link src/cli/.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <string_view>

#include "lore/app/report.h"
#include "lore/error.h"

namespace lore::cli {

// Writes `text` to standard error whole (a failure to write is ignored: there
// is nowhere else to say it).
inline void WriteStderr(std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// Prints `e` as one line on stderr and returns its exit code (app::ExitCode).
// (lore's own verbs call it as ReportError, cli/io.h.)
inline int WriteError(const Error& e) {
  WriteStderr(app::ErrorLine(e));
  return app::ExitCode(e);
}

// Prints "lore: warning: <e>" as one line on stderr.
inline void WriteWarning(const Error& e) { WriteStderr(app::WarningLine(e)); }

}  // namespace lore::cli
