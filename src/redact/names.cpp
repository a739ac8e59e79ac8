// Secrets in file names: words joined by separators are scanned word by word.
#include <algorithm>

#include "redact/redact.h"

namespace lore::redact {
namespace {

constexpr int kEndsPerPart = 4;  // parts ending at the next separators, besides the name's end
constexpr int kCleanPasses = 4;

bool IsSeparator(char c) { return c == '-' || c == '_' || c == '.' || c == '/'; }

bool IsLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsWordByte(char c) { return IsLetter(c) || (c >= '0' && c <= '9'); }

// Adds the findings of name[p, q) to `all`.
void ScanPart(std::string_view name, size_t p, size_t q, std::vector<Finding>* all) {
  for (Finding f : Scan(name.substr(p, q - p))) {
    f.offset += p;
    all->push_back(f);
  }
}

// Adds the findings of every part of `name` that starts at `p` and ends at
// the name's end or (a secret of a fixed length glued to the word after it)
// at one of the next kEndsPerPart separators.
void ScanPartsFrom(std::string_view name, size_t p, std::vector<Finding>* all) {
  ScanPart(name, p, name.size(), all);
  int ends = 0;
  for (size_t q = p + 1; q < name.size() && ends < kEndsPerPart; ++q) {
    if (!IsSeparator(name[q]) || IsSeparator(name[q - 1])) continue;
    ScanPart(name, p, q, all);
    ++ends;
  }
}

// `all` sorted by offset, overlapping findings merged into one.
std::vector<Finding> Merged(std::vector<Finding> all) {
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

// `name` with what `scan` finds removed, a few passes (each only removes;
// the next one sees what dropping a span joined).
template <class ScanFn>
std::string CleanWith(std::string_view name, ScanFn scan) {
  std::string out(name);
  for (int pass = 0; pass < kCleanPasses; ++pass) {
    const std::vector<Finding> found = scan(out);
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

}  // namespace

std::vector<Finding> ScanName(std::string_view name) {
  std::vector<Finding> all;
  // Every part that starts at the name's start or after a separator, and
  // ends at the name's end or (a secret of a fixed length glued to the word
  // after it) at one of the next separators.
  for (size_t p = 0; p < name.size(); ++p) {
    if (p > 0 && (!IsSeparator(name[p - 1]) || IsSeparator(name[p]))) continue;
    ScanPartsFrom(name, p, &all);
  }
  return Merged(std::move(all));
}

std::string CleanName(std::string_view name) { return CleanWith(name, ScanName); }

std::vector<Finding> ScanId(std::string_view id) {
  std::vector<Finding> all = ScanName(id);
  // A token glued to the letter or digit before it ("sghp_…"): the parts
  // that start at every letter inside a word are scanned as a name's parts
  // are (what they find after their start, ScanName found already).
  std::vector<Finding> glued;
  for (size_t p = 1; p < id.size(); ++p) {
    if (IsLetter(id[p]) && IsWordByte(id[p - 1])) ScanPartsFrom(id, p, &glued);
  }
  // Inside a word, "sk-" is too short a prefix to mean a key: "task-…",
  // "disk-…", "desk-…" end in it. Glued there, only the longer OpenAI forms
  // ("sk-proj-", "sk-svcacct-", "sk-admin-") count.
  for (const Finding& f : glued) {
    if (f.rule == Rule::kOpenaiKey) {
      std::string_view at = id.substr(f.offset);
      if (!at.starts_with("sk-proj-") && !at.starts_with("sk-svcacct-") &&
          !at.starts_with("sk-admin-"))
        continue;
    }
    all.push_back(f);
  }
  return Merged(std::move(all));
}

std::string CleanId(std::string_view id) { return CleanWith(id, ScanId); }

}  // namespace lore::redact
