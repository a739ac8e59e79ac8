// `lore lint` (docs/records.md) as one use case: every memory and knowledge
// record of an existing store, linted.
#pragma once

#include <cstddef>
#include <string>

#include "lore/error.h"
#include "lore/lint/finding.h"
#include "lore/store/store.h"

namespace lore::app {

struct LintedStore {
  std::string store;   // the store's folder
  size_t records = 0;  // the record files found
  lint::Report report;
};

// Lints every record of `store`; an Error (kNotFound) when the store was
// never made, or when its records cannot be listed.
Result<LintedStore> LintStore(const store::Store& store);

}  // namespace lore::app
