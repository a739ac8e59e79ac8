#include "redact/redact.h"

#include <algorithm>
#include <cstring>

#include "redact/prefix_table.h"
#include "redact/rules.h"

namespace lore::redact {
namespace {

constexpr int kMaxSpanPasses = 4;

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// The length of a <private> (close: </private>) tag at s[i], any case, with
// spaces before '>'; 0 when there is none.
size_t TagAt(std::string_view s, size_t i, bool close) {
  std::string_view name = close ? "</private" : "<private";
  if (s.size() - i < name.size()) return 0;
  for (size_t k = 0; k < name.size(); ++k) {
    if (Lower(s[i + k]) != name[k]) return 0;
  }
  size_t j = i + name.size();
  while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
  return j < s.size() && s[j] == '>' ? j + 1 - i : 0;
}

// The outermost private spans, tags included, with `*depth` spans open
// before the text (the text's start is then inside one) and after it (an
// unclosed one runs to the end).
std::vector<Finding> PrivateSpans(std::string_view s, size_t* depth) {
  std::vector<Finding> out;
  size_t start = 0;
  for (size_t i = 0; i < s.size();) {
    const void* lt = std::memchr(s.data() + i, '<', s.size() - i);
    if (!lt) break;
    i = static_cast<size_t>(static_cast<const char*>(lt) - s.data());
    if (size_t n = TagAt(s, i, false)) {
      if ((*depth)++ == 0) start = i;
      i += n;
    } else if (size_t c = *depth > 0 ? TagAt(s, i, true) : 0) {
      i += c;
      if (--*depth == 0) out.push_back({Rule::kPrivate, start, i - start});
    } else {
      ++i;
    }
  }
  if (*depth > 0) out.push_back({Rule::kPrivate, start, s.size() - start});
  return out;
}

std::vector<Finding> PrivateSpans(std::string_view s) {
  size_t depth = 0;
  return PrivateSpans(s, &depth);
}

// Adds `f` to `out`, merged with the findings it overlaps (a match may start
// a few bytes before its trigger, or inside a value read again).
void Add(Finding f, std::vector<Finding>* out) {
  while (!out->empty() && out->back().offset + out->back().length > f.offset) {
    const Finding last = out->back();
    out->pop_back();
    const size_t end = std::max(last.offset + last.length, f.offset + f.length);
    if (last.offset <= f.offset) f.rule = last.rule;  // named by the one that starts first
    f.offset = std::min(last.offset, f.offset);
    f.length = end - f.offset;
  }
  out->push_back(f);
}

// One attempt of the rules that byte s[i], a trigger `t`, may start (a look
// at the byte after or before it first: most of these bytes start nothing).
bool TryAt(std::string_view s, size_t i, internal::Trigger t, internal::ContextRules* context,
           internal::Match* m) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char next = i + 1 < s.size() ? p[i + 1] : 0;
  switch (t) {
    case internal::Trigger::kToken:  // where no token byte precedes (ScanSecrets)
      return i + 2 < s.size() && internal::MayStartToken(p[i], next, p[i + 2]) &&
             internal::TryTokenRules(s, i, m);
    case internal::Trigger::kSeparator:
      return context->At(i, m);
    case internal::Trigger::kDash:
      if (next != '-' && next != 'p' && next != 'u') return false;
      return internal::TryDashRules(s, i, m) || context->Flag(i, m);
    case internal::Trigger::kTilde:
      return i > 0 && p[i - 1] == 'Q' && internal::TryTildeRule(s, i, m);
    case internal::Trigger::kDot:
      return next == 'a' && internal::TryDotRule(s, i, m);
    case internal::Trigger::kNone:
      break;
  }
  return false;
}

// Bytes of a word ([A-Za-z0-9]: no rule is triggered inside a run of them)
// and of a token ([A-Za-z0-9_-]), as tables.
struct ByteClasses {
  bool word[256] = {};
  bool token[256] = {};
  constexpr ByteClasses() {
    for (int c = 0; c < 256; ++c) {
      word[c] = internal::IsAlnum(static_cast<unsigned char>(c));
      token[c] = internal::IsTok(static_cast<unsigned char>(c));
    }
  }
};
constexpr ByteClasses kBytes;

// The end of the run of letters and digits at p[i] ('_' ends it: an AWS key
// id may follow one).
size_t WordEnd(const unsigned char* p, size_t i, size_t n) {
  while (i < n && kBytes.word[p[i]]) ++i;
  return i;
}

// The secrets of `s`, at offsets shifted by `base`.
void ScanSecrets(std::string_view s, size_t base, std::vector<Finding>* out) {
  internal::ContextRules context(s);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  internal::Match m;
  for (size_t i = 0; i < n;) {
    internal::Trigger t = internal::Trigger::kNone;
    while (i < n && (t = internal::kTriggers.at[p[i]]) == internal::Trigger::kNone) ++i;
    if (i == n) break;
    const bool letter = t == internal::Trigger::kToken;
    bool hit;
    if (letter && i > 0 && kBytes.token[p[i - 1]]) {
      // A letter inside a token starts no rule but an AWS key id, which may
      // follow '_' or '-'.
      hit = p[i] == 'A' && !kBytes.word[p[i - 1]] && internal::TryAwsKey(s, i, &m);
    } else {
      hit = TryAt(s, i, t, &context, &m);
    }
    if (!hit) {
      i = letter ? WordEnd(p, i + 1, n) : i + 1;  // the rest of a word starts nothing
      continue;
    }
    Add(Finding{m.rule, base + m.begin, m.end - m.begin}, out);
    // A token is passed over; a value found by its context is read again
    // (still forwards: it starts after the trigger), so that a quote opened
    // before a secret cannot hide it.
    i = m.begin > i ? m.begin : m.end;
  }
}

// `text` without `spans`.
std::string Without(std::string_view text, const std::vector<Finding>& spans) {
  std::string kept;
  size_t from = 0;
  for (const Finding& span : spans) {
    kept.append(text.substr(from, span.offset - from));
    from = span.offset + span.length;
  }
  kept.append(text.substr(from));
  return kept;
}

// Clean with `*depth` private spans open before `text` and after it.
std::string CleanFrom(std::string_view text, size_t* depth, std::vector<Finding>* findings) {
  std::vector<Finding> spans = PrivateSpans(text, depth);
  std::string kept;
  std::string_view rest = text;
  if (!spans.empty()) {
    kept = Without(text, spans);
    // Dropping a span can join a new tag ("<priv" + "ate>"): drop again, a
    // few times, then everything from the first tag left to the end, so
    // that the result holds no span (Clean is idempotent).
    for (int pass = 0; pass < kMaxSpanPasses; ++pass) {
      size_t joined = 0;
      std::vector<Finding> again = PrivateSpans(kept, &joined);
      if (again.empty()) break;
      *depth += joined;  // a joined tag left open hides what follows too
      if (pass + 1 == kMaxSpanPasses) {
        kept.resize(again.front().offset);
      } else {
        kept = Without(kept, again);
      }
    }
    rest = kept;
  }
  std::vector<Finding> secrets;
  ScanSecrets(rest, 0, &secrets);
  if (findings) {
    findings->insert(findings->end(), spans.begin(), spans.end());
    findings->insert(findings->end(), secrets.begin(), secrets.end());
  }
  if (secrets.empty()) return std::string(rest);
  std::string out;
  out.reserve(rest.size());
  size_t from = 0;
  for (const Finding& f : secrets) {
    out.append(rest.substr(from, f.offset - from));
    out.append("[REDACTED:").append(RuleName(f.rule)).append("]");
    from = f.offset + f.length;
  }
  out.append(rest.substr(from));
  return out;
}

}  // namespace

std::vector<Finding> Scan(std::string_view text) {
  std::vector<Finding> spans = PrivateSpans(text);
  std::vector<Finding> out;
  size_t from = 0;
  for (const Finding& span : spans) {
    ScanSecrets(text.substr(from, span.offset - from), from, &out);
    out.push_back(span);
    from = span.offset + span.length;
  }
  ScanSecrets(text.substr(from), from, &out);
  return out;
}

bool HasFindings(std::string_view text) { return !Scan(text).empty(); }

std::string Clean(std::string_view text, std::vector<Finding>* findings) {
  size_t depth = 0;
  return CleanFrom(text, &depth, findings);
}

std::string MessageCleaner::Next(std::string_view text) {
  return CleanFrom(text, &depth_, nullptr);
}

std::vector<std::string> CleanMessage(const std::vector<std::string>& texts) {
  MessageCleaner cleaner;
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (const std::string& t : texts) out.push_back(cleaner.Next(t));
  return out;
}

bool CleanNamedValue(std::string_view name, std::string_view value, std::string* out) {
  const bool named = IsSecretName(name);
  if (Scan(value).empty()) {  // the common case: nothing is copied
    if (!named || !LooksSecret(value, /*quoted=*/true)) return false;
    *out = "[REDACTED:assignment]";
    return true;
  }
  std::string cleaned = Clean(value);
  *out =
      named && LooksSecret(cleaned, /*quoted=*/true) ? "[REDACTED:assignment]" : std::move(cleaned);
  return true;
}

}  // namespace lore::redact
