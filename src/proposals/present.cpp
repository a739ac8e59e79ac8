#include "lore/proposals/present.h"

#include <cmath>
#include <cstdio>

#include "activity/clean.h"
#include "lore/json/dump_js.h"
#include "lore/text/utf8.h"

namespace lore::proposals {

std::string FieldText(const Json& r, const char* key) {
  if (!r.is_object() || !r.contains(key)) return "";
  const Json& v = r[key];
  return activity::ReadableLine(v.is_string() ? v.get_ref<const std::string&>() : json::DumpJs(v));
}

std::vector<std::vector<size_t>> Batches(size_t n) {
  std::vector<std::vector<size_t>> out;
  for (size_t i = 0; i < n; i += kBatchSize) {
    std::vector<size_t> b;
    for (size_t j = i; j < n && j < i + kBatchSize; ++j) b.push_back(j);
    out.push_back(std::move(b));
  }
  return out;
}

std::string Prompt(size_t batch, size_t batches) {
  const std::string tail =
      " learnings should be stored permanently? Unselected ones are archived as declined.";
  if (batches <= 1) return "Which" + tail;
  return "Batch " + std::to_string(batch) + " of " + std::to_string(batches) + " \u2014 which" +
         tail;
}

std::string FitWidth(std::string_view s, size_t width, bool pad, bool ellipsis) {
  const bool valid = text::IsValidUtf8(s);
  const size_t len = valid ? text::CodePointCount(s) : s.size();
  std::string out;
  if (len > width) {
    const size_t keep = ellipsis && width > 0 ? width - 1 : width;
    out = valid ? std::string(text::PrefixCodePoints(s, keep)) : std::string(s.substr(0, keep));
    if (ellipsis && width > 0) out += "\u2026";
    return out;
  }
  out = std::string(s);
  if (pad) out.append(width - len, ' ');
  return out;
}

std::string ToFixed2(double v) {
  if (!std::isfinite(v)) return v != v ? "NaN" : (v > 0 ? "Infinity" : "-Infinity");
  // Number.prototype.toFixed gives the plain number text from 1e21 on.
  if (std::fabs(v) >= 1e21) return json::JsNumber(v);
  // JavaScript rounds the exact binary value half away from zero; glibc's
  // printf rounds exact ties to even. Decide from the exact expansion, and
  // round in decimal digits (no integer that could overflow).
  const bool negative = v < 0;
  char exact[160];  // below 1e21: at most 21 digits, the point and 60 decimals
  std::snprintf(exact, sizeof exact, "%.60f", std::fabs(v));
  std::string s = exact;
  const size_t dot = s.find('.');
  std::string digits = s.substr(0, dot) + s.substr(dot + 1, 2);  // hundredths
  if (s[dot + 3] >= '5') {
    size_t k = digits.size();
    while (k > 0 && digits[k - 1] == '9') digits[--k] = '0';
    if (k == 0) {
      digits.insert(digits.begin(), '1');
    } else {
      ++digits[k - 1];
    }
  }
  std::string out = digits.substr(0, digits.size() - 2) + "." + digits.substr(digits.size() - 2);
  if (negative) out.insert(out.begin(), '-');  // as JavaScript: (-0.001).toFixed(2) is "-0.00"
  return out;
}

std::string Label(const Json& r) {
  std::string conf = "?";
  if (r.is_object() && r.contains("confidence") && r["confidence"].is_number()) {
    conf = ToFixed2(r["confidence"].get<double>());
  }
  return "[" + FitWidth(FieldText(r, "type"), 7, true, false) + "] | " +
         FitWidth(FieldText(r, "subject"), 40, true, true) + " | conf=" + conf;
}

std::string Description(const Json& r) {
  return "evidence: " + FitWidth(FieldText(r, "evidence"), 60, false, true);
}

std::string Wrap(std::string_view text, size_t width, std::string_view first,
                 std::string_view indent) {
  std::string clean(text);
  for (char& c : clean) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  const bool valid = text::IsValidUtf8(clean);
  auto count = [&](std::string_view s) { return valid ? text::CodePointCount(s) : s.size(); };
  auto prefix = [&](std::string_view s, size_t n) {
    return valid ? text::PrefixCodePoints(s, n) : s.substr(0, n);
  };
  std::string out;
  std::string line(first);
  size_t room = width > count(first) + 20 ? width - count(first) : 20;
  size_t used = 0;
  auto flush = [&]() {
    out += line + "\n";
    line = std::string(indent);
    room = width > count(indent) + 20 ? width - count(indent) : 20;
    used = 0;
  };
  std::string_view rest = clean;
  while (!rest.empty()) {
    const size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    size_t end = rest.find(' ');
    std::string_view word = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    while (!word.empty()) {
      const size_t n = count(word);
      const size_t need = used == 0 ? n : n + 1;
      if (need <= room - used) {
        if (used > 0) line += ' ';
        line += word;
        used += need;
        break;
      }
      if (used > 0) {
        flush();
        continue;
      }
      const std::string_view part = prefix(word, room);  // a word longer than a line
      line += part;
      word.remove_prefix(part.size());
      flush();
    }
  }
  if (used > 0 || out.empty()) out += line + "\n";
  return out;
}

std::string Whole(const Json& r, size_t width, std::string_view lead, std::string_view indent) {
  std::string conf = "?";
  if (r.is_object() && r.contains("confidence") && r["confidence"].is_number()) {
    conf = ToFixed2(r["confidence"].get<double>());
  }
  const std::string in(indent);
  return Wrap(FieldText(r, "type") + ", confidence " + conf, width, lead, in) +
         Wrap(FieldText(r, "subject"), width, in, in) +
         Wrap(FieldText(r, "insight"), width, in + "insight: ", in + "         ") +
         Wrap(FieldText(r, "evidence"), width, in + "evidence: ", in + "          ");
}

}  // namespace lore::proposals
