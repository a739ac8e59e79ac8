#include "consolidate/topic.h"

#include <algorithm>
#include <cstdint>

#include "redact/redact.h"
#include "text/hash.h"

namespace lore::consolidate {
namespace {

constexpr size_t kMaxSlug = 64;
constexpr size_t kCut = 55;

bool SlugChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

std::string Hash8(std::string_view s) { return text::Hex(text::Fnv1a64(s), 8); }

std::string TrimHyphens(std::string s) {
  // Collapse runs of '-' left by dropped characters and trim both ends.
  std::string out;
  for (char c : s) {
    if (c == '-' && (out.empty() || out.back() == '-')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// `joined` as a slug: exact when `exact` and short enough, else hashed. A
// slug is a file name: one in which the redactor finds a secret (lower case
// and hyphens can make one, "sk-live-..."), is the hash alone.
std::string Finish(const std::string& joined, bool exact) {
  if (exact && !joined.empty() && joined.size() <= kMaxSlug && redact::ScanName(joined).empty()) {
    return joined;
  }
  std::string kept;
  for (char c : joined) kept += SlugChar(c) ? c : '-';
  kept = TrimHyphens(kept);
  if (kept.size() > kCut) kept = TrimHyphens(kept.substr(0, kCut));
  if (kept.empty() || !redact::ScanName(kept).empty()) return Hash8(joined);
  return kept + "-" + Hash8(joined);
}

// The normalised form of `phrase` with its private spans and secrets
// removed first: what a slug is made of.
std::string Cleaned(std::string_view phrase) { return NormalisePhrase(redact::Clean(phrase)); }

}  // namespace

std::string NormalisePhrase(std::string_view phrase) {
  std::string out;
  bool gap = false;
  for (char c : phrase) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
                 c == '_' || c == '-';
    if (space) {
      gap = !out.empty();
      continue;
    }
    if (gap) out += '-';
    gap = false;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::string SlugOfSet(std::vector<std::string> phrases) {
  for (auto& p : phrases) p = Cleaned(p);
  std::sort(phrases.begin(), phrases.end());
  phrases.erase(std::unique(phrases.begin(), phrases.end()), phrases.end());
  std::string joined;
  bool exact = true;
  for (const auto& p : phrases) {
    exact = exact && !p.empty() && std::all_of(p.begin(), p.end(), SlugChar) &&
            p.find("-or-") == std::string::npos;
    if (!joined.empty()) joined += "-or-";
    joined += p;
  }
  return Finish(joined, exact);
}

std::string DecisionTopic(const std::vector<std::string>& options, std::string_view chosen) {
  if (options.empty()) return SlugOfSet({std::string(chosen)});
  return SlugOfSet(options);
}

std::string SuccessorSlug(std::string_view topic, std::string_view chosen) {
  std::string c = Cleaned(chosen);
  bool exact = !c.empty() && std::all_of(c.begin(), c.end(), SlugChar);
  return Finish(std::string(topic) + "-" + c, exact);
}

std::string RequestSlug(std::string_view intent, std::string_view target) {
  std::string phrase = Cleaned(intent);
  std::string t = Cleaned(target);
  if (!t.empty()) phrase += "-" + t;
  bool exact = !phrase.empty() && std::all_of(phrase.begin(), phrase.end(), SlugChar);
  return Finish(phrase, exact);
}

bool SameChoice(std::string_view a, std::string_view b) {
  return NormalisePhrase(a) == NormalisePhrase(b);
}

}  // namespace lore::consolidate
