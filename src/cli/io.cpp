#include "cli/io.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "cli/command.h"
#include "cli/guard.h"
#include "cli/report.h"
#include "lore/fs/fd.h"

namespace lore::cli {

// The one exit-code rule (lore/app/report.h).
static_assert(kExitOk == app::kExitOk && kExitError == app::kExitError &&
              kExitUsage == app::kExitUsage && kExitInternal == app::kExitInternal);

int ReportError(const Error& e) { return WriteError(e); }

void ReportWarning(const Error& e) { WriteWarning(e); }

void Print(std::string_view text, bool newline) {
  std::string out(text);
  if (newline) out += '\n';
  (void)fs::WriteAll(STDOUT_FILENO, out, "<stdout>");
}

void PrintError(std::string_view text) { (void)fs::WriteAll(STDERR_FILENO, text, "<stderr>"); }

Result<std::string> ReadStdin(size_t max_bytes, std::string* head) {
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot read", "<stdin>"));
    if (n == 0) return data;
    if (data.size() + static_cast<size_t>(n) > max_bytes) {
      if (head) {
        data.append(buf, static_cast<size_t>(n));
        *head = data.substr(0, kStdinHeadBytes);
      }
      return Fail(ErrorCode::kInvalidInput,
                  "standard input is over the limit of " + std::to_string(max_bytes) + " bytes",
                  "<stdin>", 0, "send a smaller input");
    }
    data.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace lore::cli
