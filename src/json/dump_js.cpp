#include "lore/json/dump_js.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lore::json {
namespace {

bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

void AppendString(std::string* out, const std::string& s) {
  out->push_back('"');
  size_t run = 0;  // start of the pending run of characters copied as they are
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!NeedsEscape(c)) continue;
    out->append(s, run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out->append(buf);
      }
    }
  }
  out->append(s, run, s.size() - run);
  out->push_back('"');
}

void Append(std::string* out, const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      out->append("null");
      break;
    case Json::value_t::boolean:
      out->append(v.get<bool>() ? "true" : "false");
      break;
    case Json::value_t::number_integer:
      out->append(std::to_string(v.get<int64_t>()));
      break;
    case Json::value_t::number_unsigned:
      out->append(std::to_string(v.get<uint64_t>()));
      break;
    case Json::value_t::number_float:
      out->append(JsNumber(v.get<double>()));
      break;
    case Json::value_t::string:
      AppendString(out, v.get_ref<const std::string&>());
      break;
    case Json::value_t::array: {
      out->push_back('[');
      bool first = true;
      for (const auto& e : v) {
        if (!first) out->push_back(',');
        first = false;
        Append(out, e);
      }
      out->push_back(']');
      break;
    }
    case Json::value_t::object: {
      out->push_back('{');
      bool first = true;
      for (const auto& [k, e] : v.items()) {
        if (!first) out->push_back(',');
        first = false;
        AppendString(out, k);
        out->push_back(':');
        Append(out, e);
      }
      out->push_back('}');
      break;
    }
    default:
      out->append("null");
      break;  // binary and discarded values have no JSON form
  }
}

}  // namespace

std::string JsNumber(double v) {
  if (std::isnan(v) || std::isinf(v)) return "null";
  if (v == 0) return "0";
  std::string out;
  if (v < 0) {
    out.push_back('-');
    v = -v;
  }
  // Shortest digits that round-trip, in scientific form: d[.ddd]e±x.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(r.ptr - buf));
  size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  const int k = static_cast<int>(digits.size());
  const int n = std::atoi(std::string(sci.substr(e_pos + 1)).c_str()) + 1;
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n));
    out.push_back('.');
    out += digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out += digits;
  } else {
    out.push_back(digits[0]);
    if (k > 1) {
      out.push_back('.');
      out += digits.substr(1);
    }
    out.push_back('e');
    out.push_back(n - 1 >= 0 ? '+' : '-');
    out += std::to_string(std::abs(n - 1));
  }
  return out;
}

std::string DumpJs(const Json& value) {
  std::string out;
  Append(&out, value);
  return out;
}

}  // namespace lore::json
