// The digest of index.md written by a model (`lore distill --llm`): the rules
// its body must keep and the prompt that states them. The model writes only
// the body; lore keeps the frontmatter it rendered itself (title, updated,
// tags), so a model cannot change the dates or the tags.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lore/error.h"

namespace lore::distill {

using Page = std::pair<std::string, std::string>;  // okf/ file name -> bytes

struct DigestPrompt {
  std::string system, user;
};

// What the model is asked: the rules, the deterministic index.md as a
// reference and each topic page (long pages cut, at most ~48 KB in all).
DigestPrompt MakeDigestPrompt(const std::vector<Page>& pages,
                              const std::vector<std::string>& linkable);

// index.md with its body replaced by `body` (the frontmatter of `index_page`
// kept). `body` is trimmed of blank lines around it and ends with a newline.
std::string WithDigest(std::string_view index_page, std::string_view body);

// Checks a whole index.md built by WithDigest: at most 60 lines and 4 KB,
// valid UTF-8, no frontmatter fence of its own, every Markdown link a
// relative link to one of `linkable` (okf/ file names). The error says which
// rule was broken, in words a model can act on.
Status CheckDigest(std::string_view index_page, const std::vector<std::string>& linkable);

}  // namespace lore::distill
