// Reading memory/summary.md, memory/decisions/ and memory/requests/ for the
// distiller. Internal to src/distill/.
#pragma once

#include <vector>

#include "distill/model.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::distill {

// Fills in->decisions, in->requests (sorted by slug) and in->summary_lines.
// A record that does not parse is skipped and named in `warnings`; a folder
// that cannot be read is an error.
Status ReadMemory(const store::Store& store, Inputs* in, std::vector<Error>* warnings);

// The title (first "# " heading, else `fallback`) and the first paragraph of
// a Markdown body, one line each.
void TitleAndExcerpt(std::string_view body, const std::string& fallback, std::string* title,
                     std::string* excerpt);

}  // namespace lore::distill
