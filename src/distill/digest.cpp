#include "lore/distill/digest.h"

#include <algorithm>

#include "distill/pages.h"
#include "doc/frontmatter.h"
#include "lore/store/layout.h"
#include "lore/text/utf8.h"

namespace lore::distill {
namespace {

constexpr size_t kPageCut = 8 * 1024;     // of one topic page in the prompt
constexpr size_t kPromptCut = 48 * 1024;  // of all pages together

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.remove_suffix(1);
  return s;
}

Status Broken(std::string rule) {
  return Fail(ErrorCode::kInvalidInput, "the digest breaks a rule: " + rule,
              std::string(store::kIndexFile), 0, "write the digest again within the rules");
}

}  // namespace

DigestPrompt MakeDigestPrompt(const std::vector<Page>& pages,
                              const std::vector<std::string>& linkable) {
  std::string list;
  for (const auto& l : linkable) list += (list.empty() ? "" : ", ") + l;
  DigestPrompt p;
  p.system =
      "You write the body of okf/index.md, the one-page digest of a software repository's "
      "memory that coding agents read first. Rules: Markdown only; at most ";
  p.system += std::to_string(kIndexMaxLines - 8);
  p.system +=
      " lines and about 3,500 bytes; start with a '# ' heading; no frontmatter (lore adds it); "
      "link only to these pages, with relative links such as [Gotchas](gotchas.md): ";
  p.system += list.empty() ? std::string("(none)") : list;
  p.system +=
      ". State the most useful facts first (what to avoid, what was decided, how work is "
      "sliced); keep numbers exact; invent nothing that the pages do not say. Answer with the "
      "body alone.";
  std::string user = "The pages of the bundle follow, each after a line '=== <file name>'.\n";
  for (const auto& [name, bytes] : pages) {
    std::string_view text = bytes;
    text.remove_prefix(doc::PlainBodyStart(text));
    std::string cut(text.substr(0, kPageCut));
    if (cut.size() < text.size()) cut = cut.substr(0, cut.rfind('\n') + 1) + "[…cut]\n";
    if (user.size() + cut.size() > kPromptCut) {
      user += "=== " + name + "\n[left out: the prompt is full]\n";
      continue;
    }
    user +=
        "=== " + name + (name == "index.md" ? " (the digest lore wrote itself)" : "") + "\n" + cut;
  }
  p.user = std::move(user);
  return p;
}

std::string WithDigest(std::string_view index_page, std::string_view body) {
  std::string out(index_page.substr(0, doc::PlainBodyStart(index_page)));
  std::string_view b = Trim(body);
  if (b.empty()) return out;
  out += b;
  out += '\n';
  return out;
}

Status CheckDigest(std::string_view index_page, const std::vector<std::string>& linkable) {
  const size_t lines = static_cast<size_t>(std::count(index_page.begin(), index_page.end(), '\n'));
  if (lines > kIndexMaxLines) {
    return Broken("it has " + std::to_string(lines) + " lines with the frontmatter; at most " +
                  std::to_string(kIndexMaxLines) + " are allowed");
  }
  if (index_page.size() > kIndexMaxBytes) {
    return Broken("it has " + std::to_string(index_page.size()) +
                  " bytes with the frontmatter; at most " + std::to_string(kIndexMaxBytes) +
                  " are allowed");
  }
  if (!text::IsValidUtf8(index_page)) return Broken("it is not valid UTF-8");
  std::string_view body = index_page.substr(doc::PlainBodyStart(index_page));
  if (body.empty()) return Broken("it is empty");
  if (body.substr(0, 3) == "---") return Broken("it starts with a frontmatter fence '---'");
  for (size_t at = body.find("]("); at != std::string_view::npos; at = body.find("](", at + 2)) {
    size_t close = body.find(')', at + 2);
    std::string_view target = body.substr(
        at + 2, close == std::string_view::npos ? std::string_view::npos : close - at - 2);
    target = target.substr(0, target.find_first_of(" #"));
    if (std::find(linkable.begin(), linkable.end(), target) == linkable.end()) {
      return Broken("it links to '" + std::string(target.substr(0, 200)) +
                    "', which is not a page of the bundle");
    }
  }
  return Ok();
}

}  // namespace lore::distill
