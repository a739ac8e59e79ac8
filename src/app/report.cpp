#include "lore/app/report.h"

namespace lore::app {
namespace {

Voice voice = Voice::kLore;

}  // namespace

void SpeakAs(Voice v) { voice = v; }
Voice Speaking() { return voice; }

std::string_view Name() { return voice == Voice::kReviewerMemory ? "reviewer-memory" : "lore"; }

std::string Line(std::string_view text) {
  std::string line(Name());
  line.append(": ").append(text);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  line += '\n';
  return line;
}

std::string ErrorLine(const Error& e) {
  return Line(voice == Voice::kReviewerMemory ? ReviewerMemoryMessage(e) : e.Format());
}

std::string WarningLine(const Error& e) { return Line("warning: " + e.Format()); }

int ExitCode(const Error&) { return kExitError; }

}  // namespace lore::app
