#include "lore/agent_setup/diff.h"

#include <algorithm>
#include <vector>

namespace lore::agent_setup {
namespace {

std::vector<std::string_view> Lines(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t nl = s.find('\n');
    size_t n = nl == std::string_view::npos ? s.size() : nl + 1;
    out.push_back(s.substr(0, n));
    s.remove_prefix(n);
  }
  return out;
}

void Add(std::string* out, std::string_view mark, std::string_view line) {
  *out += mark;
  *out += line;
  if (line.empty() || line.back() != '\n') *out += '\n';
}

}  // namespace

std::string LineDiff(std::string_view before, std::string_view after, size_t context) {
  if (before == after) return {};
  auto a = Lines(before);
  auto b = Lines(after);
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    ++tail;
  }
  size_t from = head > context ? head - context : 0;
  std::string out = "@@ line " + std::to_string(from + 1) + " @@\n";
  for (size_t i = from; i < head; ++i) Add(&out, "  ", a[i]);
  for (size_t i = head; i < a.size() - tail; ++i) Add(&out, "- ", a[i]);
  for (size_t i = head; i < b.size() - tail; ++i) Add(&out, "+ ", b[i]);
  size_t end = std::min(a.size(), a.size() - tail + context);
  for (size_t i = a.size() - tail; i < end; ++i) Add(&out, "  ", a[i]);
  return out;
}

}  // namespace lore::agent_setup
