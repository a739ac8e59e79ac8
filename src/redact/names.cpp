// Secrets in file names: words joined by separators are scanned word by word.
#include <algorithm>

#include "redact/redact.h"

namespace lore::redact {
namespace {

constexpr int kEndsPerPart = 4;  // parts ending at the next separators, besides the name's end
constexpr int kCleanPasses = 4;

bool IsSeparator(char c) { return c == '-' || c == '_' || c == '.' || c == '/'; }

// Adds the findings of name[p, q) to `all`.
void ScanPart(std::string_view name, size_t p, size_t q, std::vector<Finding>* all) {
  for (Finding f : Scan(name.substr(p, q - p))) {
    f.offset += p;
    all->push_back(f);
  }
}

}  // namespace

std::vector<Finding> ScanName(std::string_view name) {
  std::vector<Finding> all;
  // Every part that starts at the name's start or after a separator, and
  // ends at the name's end or (a secret of a fixed length glued to the word
  // after it) at one of the next separators.
  for (size_t p = 0; p < name.size(); ++p) {
    if (p > 0 && (!IsSeparator(name[p - 1]) || IsSeparator(name[p]))) continue;
    ScanPart(name, p, name.size(), &all);
    int ends = 0;
    for (size_t q = p + 1; q < name.size() && ends < kEndsPerPart; ++q) {
      if (!IsSeparator(name[q]) || IsSeparator(name[q - 1])) continue;
      ScanPart(name, p, q, &all);
      ++ends;
    }
  }
  std::sort(all.begin(), all.end(),
            [](const Finding& a, const Finding& b) { return a.offset < b.offset; });
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (!out.empty() && out.back().offset + out.back().length > f.offset) {
      Finding& last = out.back();
      last.length = std::max(last.offset + last.length, f.offset + f.length) - last.offset;
    } else {
      out.push_back(f);
    }
  }
  return out;
}

std::string CleanName(std::string_view name) {
  std::string out(name);
  // Each pass only removes; the next one sees what dropping a span joined.
  for (int pass = 0; pass < kCleanPasses; ++pass) {
    const std::vector<Finding> found = ScanName(out);
    if (found.empty()) break;
    std::string next;
    size_t from = 0;
    for (const Finding& f : found) {
      next.append(out, from, f.offset - from);
      if (f.rule != Rule::kPrivate) next.append("[REDACTED:").append(RuleName(f.rule)).append("]");
      from = f.offset + f.length;
    }
    next.append(out, from, std::string::npos);
    out = std::move(next);
  }
  return out;
}

}  // namespace lore::redact
