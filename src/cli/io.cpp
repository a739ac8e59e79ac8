#include "cli/io.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "cli/command.h"
#include "cli/reviewer_memory.h"
#include "lore/fs/fd.h"

namespace lore::cli {

int ReportError(const Error& e) {
  // As reviewer-memory: its name and its words (the file and repair kept).
  std::string line = ActingAsReviewerMemory() ? "reviewer-memory: " + ReviewerMemoryMessage(e)
                                              : "lore: " + e.Format();
  // One line, whatever the message holds.
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  line += '\n';
  (void)fs::WriteAll(STDERR_FILENO, line, "<stderr>");
  return kExitError;
}

void ReportWarning(const Error& e) {
  std::string line = std::string(ActingAsReviewerMemory() ? "reviewer-memory" : "lore") +
                     ": warning: " + e.Format() + "\n";
  (void)fs::WriteAll(STDERR_FILENO, line, "<stderr>");
}

void Print(std::string_view text, bool newline) {
  std::string out(text);
  if (newline) out += '\n';
  (void)fs::WriteAll(STDOUT_FILENO, out, "<stdout>");
}

Result<std::string> ReadStdin() { return fs::ReadAll(STDIN_FILENO, "<stdin>"); }

}  // namespace lore::cli
