#include "lore/learnings/list.h"

#include "lore/json/dump_js.h"
#include "lore/text/utf8.h"

namespace lore::learnings {
namespace {

std::string_view JsonText(const FileScan& scan, const Line& l) {
  std::string_view t = scan.Text(l.span);
  while (!t.empty() &&
         (t.back() == '\n' || t.back() == '\r' || t.back() == ' ' || t.back() == '\t'))
    t.remove_suffix(1);
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  return t;
}

std::string Padded(std::string_view s, size_t width) {
  std::string out(s);
  size_t n = text::CodePointCount(s);
  if (n < width) out.append(width - n, ' ');
  return out;
}

// One line of free text: control characters become spaces, cut to `max`.
std::string Cell(std::string_view s, size_t max) {
  std::string out;
  std::string_view cut = text::PrefixCodePoints(s, max);
  for (char c : cut) out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  if (cut.size() < s.size()) out += "\u2026";
  return out;
}

}  // namespace

Listing ListJson(const FileScan& scan, const ListOptions& o) {
  Listing out;
  out.text.reserve(scan.bytes.size() + 16);
  out.text += '[';
  for (const Line& l : scan.lines) {
    if (!l.object) {
      out.malformed += l.blank ? 0 : 1;
      continue;
    }
    const bool live = IsLive(l.facts, o.now);
    if (!live && !o.all) {
      ++out.hidden;
      continue;
    }
    if (out.shown++ > 0) out.text += ',';
    std::string_view t = JsonText(scan, l);
    if (!live) {
      // "{" then the rest: the line is one JSON object.
      std::string_view rest = t.substr(1);
      size_t first = rest.find_first_not_of(" \t\r");
      out.text += first != std::string_view::npos && rest[first] == '}' ? "{\"expired\":true"
                                                                        : "{\"expired\":true,";
      out.text += rest;
    } else {
      out.text += t;
    }
  }
  out.text += "]\n";
  return out;
}

Listing ListTable(const FileScan& scan, const ListOptions& o) {
  Listing out;
  std::string rows;
  for (const Line& l : scan.lines) {
    if (!l.object) {
      out.malformed += l.blank ? 0 : 1;
      continue;
    }
    const Facts& f = l.facts;
    const bool live = IsLive(f, o.now);
    if (!live && !o.all) {
      ++out.hidden;
      continue;
    }
    ++out.shown;
    rows += Padded(Cell(f.id.substr(0, 8), 8), 9);
    rows += Padded(Cell(f.type, 23), 24);
    rows += Padded(f.confidence ? json::JsNumber(*f.confidence) : "-", 6);
    rows += Padded(f.occurrences ? std::to_string(*f.occurrences) : "-", 5);
    rows += Padded(f.expires_at ? text::UtcDate(*f.expires_at) : "never", 11);
    rows += Cell(f.subject, 60);
    if (!live) rows += " (expired)";
    rows += '\n';
  }
  if (out.shown == 0) {
    out.text = "no learnings";
    if (out.hidden > 0)
      out.text += " (" + std::to_string(out.hidden) + " expired: --all shows them)";
    out.text += '\n';
    return out;
  }
  out.text = Padded("ID", 9) + Padded("TYPE", 24) + Padded("CONF", 6) + Padded("OCC", 5) +
             Padded("EXPIRES", 11) + "SUBJECT\n" + rows;
  return out;
}

}  // namespace lore::learnings
