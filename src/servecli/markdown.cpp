// Markdown to HTML (markdown.h), by md4c (libmd4c-html, docs/dependencies.md).
#include "servecli/markdown.h"

#include <md4c-html.h>
#include <md4c.h>  // MD_FLAG_*: the parser's flags, passed through md4c-html

namespace lore::serve {

std::string MarkdownHtml(std::string_view markdown) {
  std::string out;
  out.reserve(markdown.size() + markdown.size() / 4);
  auto sink = [](const MD_CHAR* text, MD_SIZE size, void* user) {
    static_cast<std::string*>(user)->append(text, size);
  };
  // MD_FLAG_NOHTML: HTML blocks and inline tags are not raw HTML but text,
  // which the renderer escapes like any other.
  const unsigned parser = MD_DIALECT_GITHUB | MD_FLAG_NOHTML;
  if (md_html(markdown.data(), static_cast<MD_SIZE>(markdown.size()), sink, &out, parser,
              MD_HTML_FLAG_SKIP_UTF8_BOM) != 0) {
    return {};  // md4c fails only when out of memory: the page shows the text instead
  }
  return out;
}

}  // namespace lore::serve
