// `lore learnings`: the learnings of a store as a table or a JSON array.
#pragma once

#include <string>

#include "lore/learnings/file.h"

namespace lore::learnings {

struct ListOptions {
  text::TimePoint now{};
  bool all = false;  // expired (and zero-confidence) learnings too, marked
};

struct Listing {
  std::string text;       // the table or the JSON array, ending with '\n'
  int64_t shown = 0;      // learnings listed
  int64_t hidden = 0;     // not live and not listed (without `all`)
  int64_t malformed = 0;  // lines that are not JSON objects (never listed)
};

// A JSON array of the learnings as stored (each line's exact JSON text);
// with `all`, one that is not live starts with "expired":true.
Listing ListJson(const FileScan& scan, const ListOptions& options);

// A table: id (8 characters), type, confidence, occurrences, expiry date and
// subject (cut to 60 characters with …); with `all`, not live ones end with
// "(expired)". A header line first; "no learnings" when there are none.
Listing ListTable(const FileScan& scan, const ListOptions& options);

}  // namespace lore::learnings
