#include "activity/clean.h"

#include <array>
#include <cctype>

#include "lore/activity/outcomes.h"
#include "lore/text/utf8.h"
#include "redact/redact.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

// The length of the CSI sequence body at `s` (parameters, intermediates and
// the final byte), or 0 when `s` does not hold a complete one.
size_t CsiBody(std::string_view s, size_t max = 32) {
  size_t i = 0;
  while (i < s.size() && i < max && s[i] >= 0x30 && s[i] <= 0x3F) ++i;
  while (i < s.size() && i < max && s[i] >= 0x20 && s[i] <= 0x2F) ++i;
  if (i < s.size() && s[i] >= 0x40 && s[i] <= 0x7E) return i + 1;
  return 0;
}

// The length of an escape sequence written as text at `s` ("\033[31m",
// "\x1b[0m", "\u001b[K", "\e[1m"), or 0.
size_t TextualEscape(std::string_view s) {
  for (std::string_view lead : {"\\033[", "\\x1b[", "\\x1B[", "\\u001b[", "\\u001B[", "\\e["}) {
    if (!s.starts_with(lead)) continue;
    size_t body = CsiBody(s.substr(lead.size()));
    if (body > 0 && std::isalpha(static_cast<unsigned char>(s[lead.size() + body - 1])))
      return lead.size() + body;
  }
  return 0;
}

// The length of the escape sequence starting with ESC at s[0].
size_t EscapeLength(std::string_view s) {
  if (s.size() < 2) return s.size();
  if (s[1] == '[') {
    size_t body = CsiBody(s.substr(2), 64);
    return body ? 2 + body : 2;
  }
  if (s[1] == ']' || s[1] == 'P' || s[1] == '_' || s[1] == '^') {
    // OSC and string sequences: up to BEL or ESC '\' (bounded).
    for (size_t i = 2; i < s.size() && i < 4096; ++i) {
      if (s[i] == '\a') return i + 1;
      if (s[i] == 0x1B && i + 1 < s.size() && s[i + 1] == '\\') return i + 2;
    }
    return 2;
  }
  // A character set designation: ESC, one of ( ) * + - . /, and its set.
  if (std::string_view("()*+-./").find(s[1]) != std::string_view::npos)
    return std::min<size_t>(3, s.size());
  return 2;  // ESC and one byte (keypad modes, …)
}

struct Block {
  std::string_view open, close;
};

constexpr std::array<Block, 3> kHarnessBlocks = {{
    {"<system-reminder>", "</system-reminder>"},
    {"<user-prompt-submit-hook>", "</user-prompt-submit-hook>"},
    {"<task-notification>", "</task-notification>"},
}};

// Sentences the harness appends to tool results for the model: cut from the
// sentence's start to the end of its line.
constexpr std::array<std::string_view, 6> kHarnessSentences = {
    "Ensure that you continue to use the todo list",
    "Read the output file to retrieve the result",
    "you MUST refuse to improve or augment the code",
    "DO NOT respond to these messages",
    "[Request interrupted by user",
    "[Request cancelled",
};

void CutSentences(std::string& s) {
  for (std::string_view p : kHarnessSentences) {
    size_t at;
    while ((at = s.find(p)) != std::string::npos) {
      size_t end = s.find('\n', at);
      s.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
  }
}

bool Rejection(std::string_view t) {
  return t.starts_with("The user doesn't want to proceed with this tool use") ||
         t.starts_with("The user doesn't want to take this action");
}

// The command's last pipeline stage (after the last unquoted '|', "&&" or
// ';'), without leading white space, "sudo " or "env ".
std::string_view LastStage(std::string_view command) {
  size_t cut = 0;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '|' || c == ';' || c == '&' || c == '\n') cut = i + 1;
  }
  std::string_view s = text::Trim(command.substr(cut));
  for (std::string_view w : {"sudo ", "env ", "command "}) {
    if (s.starts_with(w)) s = text::Trim(s.substr(w.size()));
  }
  return s;
}

// True for the commands whose exit code 1 means "no match" or "differs".
bool SearchCommand(std::string_view command) {
  std::string_view stage = LastStage(command);
  size_t sp = stage.find_first_of(" \t");
  std::string_view word = stage.substr(0, sp);
  if (size_t slash = word.rfind('/'); slash != std::string_view::npos)
    word = word.substr(slash + 1);
  for (std::string_view w : {"grep", "egrep", "fgrep", "rg", "ag", "ack", "findstr", "test", "[",
                             "diff", "cmp", "pgrep", "which", "command", "type"}) {
    if (word == w) return true;
  }
  return false;
}

// The output without the harness's "Exit code N" line.
std::string_view WithoutExitLine(std::string_view t) {
  t = text::Trim(t);
  if (!t.starts_with("Exit code ")) return t;
  size_t nl = t.find('\n');
  return nl == std::string_view::npos ? std::string_view() : text::Trim(t.substr(nl + 1));
}

}  // namespace

std::string Readable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0x1B) {
      i += EscapeLength(text.substr(i));
      continue;
    }
    if (c == '\\') {
      if (size_t n = TextualEscape(text.substr(i))) {
        i += n;
        continue;
      }
    }
    if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      out += '\n';
      ++i;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
      ++i;
      continue;
    }
    if (c == 0xC2 && i + 1 < text.size()) {
      unsigned char d = static_cast<unsigned char>(text[i + 1]);
      if (d >= 0x80 && d <= 0x9F) {  // a C1 control character (U+0080..U+009F)
        i += 2;
        continue;
      }
    }
    out += static_cast<char>(c);
    ++i;
  }
  return out;
}

std::string ReadableLine(std::string_view text) {
  std::string out = Readable(text);
  for (char& c : out) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return out;
}

std::string CleanLine(std::string_view text, size_t max_bytes) {
  std::string out = ReadableLine(redact::Clean(text));
  if (out.size() > max_bytes) out.resize(text::PrefixBytes(out, max_bytes).size());
  return out;
}

std::string WithoutHarness(std::string_view text) {
  std::string s(text);
  for (const Block& b : kHarnessBlocks) {
    size_t at;
    while ((at = s.find(b.open)) != std::string::npos) {
      size_t end = s.find(b.close, at + b.open.size());
      s.erase(at, end == std::string::npos ? std::string::npos : end + b.close.size() - at);
    }
    // A closing tag left alone (its opening was cut off before the text began).
    while ((at = s.find(b.close)) != std::string::npos) s.erase(0, at + b.close.size());
  }
  CutSentences(s);
  return std::string(text::Trim(s));
}

std::string_view StatusName(ResultStatus status) {
  switch (status) {
    case ResultStatus::kOk:
      return "ok";
    case ResultStatus::kFailed:
      return "failed";
    case ResultStatus::kRejected:
      return "rejected";
    case ResultStatus::kInterrupted:
      return "interrupted";
    case ResultStatus::kDenied:
      return "denied";
  }
  return "ok";
}

std::optional<ResultStatus> ParseStatus(std::string_view name) {
  for (ResultStatus s : {ResultStatus::kOk, ResultStatus::kFailed, ResultStatus::kRejected,
                         ResultStatus::kInterrupted, ResultStatus::kDenied}) {
    if (StatusName(s) == name) return s;
  }
  return std::nullopt;
}

ResultStatus Classify(std::string_view text, bool is_error, std::optional<int64_t> exit_code,
                      std::string_view command, std::string* reason) {
  std::string_view t = text::Trim(text);
  if (Rejection(t)) {
    constexpr std::string_view kSaid = "the user said:";
    if (size_t at = t.find(kSaid); reason && at != std::string_view::npos) {
      std::string_view said = text::Trim(t.substr(at + kSaid.size()));
      // The harness's own words written in the person's place are not theirs.
      if (!said.starts_with("The user ")) *reason = std::string(said);
    }
    return ResultStatus::kRejected;
  }
  if (t.find("[Request interrupted by user") != std::string_view::npos ||
      t.starts_with("[Request cancelled") || t.starts_with("Interrupted by user"))
    return ResultStatus::kInterrupted;
  if ((t.find("Claude requested permissions to") != std::string_view::npos &&
       t.find("haven't granted it") != std::string_view::npos) ||
      (t.starts_with("Permission to use ") && t.find("denied") != std::string_view::npos) ||
      t.starts_with("This command requires approval"))
    return ResultStatus::kDenied;
  bool failed = is_error || (exit_code && *exit_code != 0);
  if (t.starts_with("Exit code ") && !t.starts_with("Exit code 0")) failed = true;
  if (!failed) return ResultStatus::kOk;
  if (t.find("nothing to commit") != std::string_view::npos ||
      t.find("no changes added to commit") != std::string_view::npos)
    return ResultStatus::kOk;
  bool exit_one =
      (exit_code && *exit_code == 1) || t.starts_with("Exit code 1\n") || t == "Exit code 1";
  if (exit_one && WithoutExitLine(t).empty() && SearchCommand(command)) return ResultStatus::kOk;
  return ResultStatus::kFailed;
}

// A build or test run piped into `tail` or `head` reports the pager's exit code, 0: its
// output still says it failed ("error[E0432]: …", "clang: error: linker command failed",
// "FAILED tests/x.py", "test result: FAILED").
bool MaskedFailure(std::string_view command, std::string_view text) {
  std::string_view first = command.substr(0, command.find('\n'));
  size_t pipe = first.rfind('|');
  if (pipe == std::string_view::npos || pipe == 0 || first[pipe - 1] == '|') return false;
  std::string_view last = text::Trim(first.substr(pipe + 1));
  if (!last.starts_with("tail") && !last.starts_with("head")) return false;
  const std::string_view run = first.substr(0, pipe);
  const std::string kind = OutcomeKind(run);
  const std::string low_run = text::AsciiLower(run);
  bool builds = kind == "build" || kind == "test";
  for (std::string_view w : {" build", " test", " check"}) {  // `cross build`, `zig build`
    size_t at = low_run.find(w);
    builds = builds || (at != std::string::npos &&
                        (at + w.size() == low_run.size() || low_run[at + w.size()] == ' '));
  }
  if (!builds) return false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text::Trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    const std::string low = text::AsciiLower(line.substr(0, 200));
    if (low.starts_with("error:") || low.starts_with("error[") || low.starts_with("error ts") ||
        low.starts_with("failed ") || low.starts_with("fail ") || low.starts_with("npm err!") ||
        low.starts_with("make: ***") || low.starts_with("build failed") ||
        low.starts_with("traceback (most recent call last)") ||
        low.find("test result: failed") != std::string::npos ||
        low.find(": error: ") != std::string::npos || low.find("] error ") != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace lore::activity
