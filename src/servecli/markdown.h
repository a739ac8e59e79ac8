// Markdown to HTML for the page (md4c's renderer): raw HTML in the text is
// written as escaped text, never passed through (docs/serve.md).
#pragma once

#include <string>
#include <string_view>

namespace lore::serve {

// `markdown` (CommonMark with GitHub's tables, strikethrough, task lists and
// autolinks) as an HTML fragment; any HTML block or tag in it escaped.
std::string MarkdownHtml(std::string_view markdown);

}  // namespace lore::serve
