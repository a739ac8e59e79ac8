// The pages an agent reads whole (MCP's resources, docs/agents.md): those of
// the distilled bundle in okf/ and the resident summary.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::app {

struct Page {
  std::string rel;    // in the store: "okf/<name>", or the summary's file
  std::string name;   // the file's name in okf/ (empty for the summary)
  std::string title;  // "title:" of its frontmatter; empty when none or unreadable
  bool summary = false;
};

// The bundle's pages (the regular files directly in okf/ with a plain name:
// no leading '.', in byte order), then the summary when it is a regular
// file; none at all while okf/ does not exist. An error when okf/ is a
// symlink or cannot be read.
Result<std::vector<Page>> ListPages(const store::Store& store);

// The text of the page at `rel` (a Page::rel); kNotFound when it is missing
// or `rel` names no page.
Result<std::string> ReadPage(const store::Store& store, std::string_view rel);

}  // namespace lore::app
