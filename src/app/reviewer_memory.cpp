// The reviewer-memory voice of the reporter (report.h): seed 003's script's
// words for lore's errors.
#include "lore/app/report.h"

namespace lore::app {
namespace {

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}
bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::string Where(const Error& e) {
  return e.line > 0 ? e.path + ":" + std::to_string(e.line) : e.path;
}
std::string Repair(const Error& e) { return e.repair.empty() ? "" : "; " + e.repair; }
std::string RepairThenRetry(const Error& e) {
  return "; " + (e.repair.empty() ? "repair the store" : e.repair) + ", then retry";
}

// The script's words for a problem with standard input.
std::string StdinMessage(const Error& e) {
  std::string detail = e.what + (e.line > 0 ? " (line " + std::to_string(e.line) + ")" : "");
  if (Contains(e.what, "UTF-8")) return "stdin must contain UTF-8 JSON: " + detail + Repair(e);
  if (Contains(e.what, "not an object")) return "stdin must contain one JSON object" + Repair(e);
  return "stdin must contain one JSON object: " + detail + Repair(e);
}

// A bad raw.jsonl line: lore says "malformed line (<detail>)".
std::string RawLineMessage(const Error& e) {
  std::string detail = e.what;
  if (StartsWith(detail, "malformed line (") && EndsWith(detail, ")")) {
    detail = detail.substr(16, detail.size() - 17);
  }
  if (Contains(detail, "UTF-8")) return "invalid UTF-8 in " + Where(e) + Repair(e);
  if (detail == "a JSON value that is not an object") detail = "expected an object";
  return "malformed JSON line in " + Where(e) + ": " + detail + Repair(e);
}

}  // namespace

std::string ReviewerMemoryMessage(const Error& e) {
  const bool raw = EndsWith(e.path, "/raw.jsonl");
  const bool index = EndsWith(e.path, "/okf/index.md");
  if (e.code == ErrorCode::kSymlink) {
    return "symlinked store path is not allowed: " + e.path +
           "; replace it with a regular path, then retry";
  }
  if (e.code == ErrorCode::kPermission) {
    // lore: "cannot open: permission denied"; the script: "cannot read <path>: permission denied".
    std::string op = e.what.substr(0, e.what.find(": permission denied"));
    return op + " " + e.path +
           ": permission denied; rerun this verb outside the sandbox or with escalated "
           "permissions";
  }
  if (e.path == "<stdin>") return StdinMessage(e);
  if (StartsWith(e.what, "store root is not a directory")) {
    return "store root is not a directory: " + e.path + "; remove or repair it, then retry";
  }
  if ((raw || index) &&
      (e.code == ErrorCode::kNotFound || Contains(e.what, "not a regular file"))) {
    return std::string(raw ? "missing raw record file: " : "missing OKF index: ") + e.path +
           RepairThenRetry(e);
  }
  if (raw && e.line > 0) return RawLineMessage(e);
  if (index && Contains(e.what, "UTF-8")) return "invalid UTF-8 in " + Where(e) + Repair(e);
  if (index && Contains(e.what, "frontmatter")) {
    // The script says "...in <path>: begin and close it with --- lines"; the
    // repair goes after "; " as in every other message.
    return "unparseable OKF index frontmatter in " + Where(e) +
           "; begin and close it with --- lines";
  }
  if (Contains(e.what, "empty store key")) {
    return "repo must resolve to a non-empty remote or checkout path: " + e.path + Repair(e);
  }
  // An operating-system error, "cannot write: No space left on device", reads
  // as the script's "cannot write <path>: No space left on device".
  if (size_t colon = e.what.find(": ");
      StartsWith(e.what, "cannot ") && colon != std::string::npos && !e.path.empty()) {
    return e.what.substr(0, colon) + " " + Where(e) + e.what.substr(colon) + Repair(e);
  }
  return e.Format();
}

}  // namespace lore::app
