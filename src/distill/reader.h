// Reading the distiller's inputs from a store. Internal to src/distill/.
#pragma once

#include "distill/model.h"
#include "lore/distill/distill.h"
#include "lore/store/store.h"

namespace lore::distill {

// File names the distiller writes in okf/ (others there are carried over).
bool IsGeneratedPage(std::string_view name);

// Reads raw.jsonl (every line must be a JSON object: the first bad one is an
// error exactly like the capture verbs'), learnings.jsonl (bad lines are
// skipped and counted), memory/ (records that do not parse are skipped with
// a warning) and the names of okf/ pages lore did not generate.
Result<Inputs> ReadInputs(const store::Store& store, const Progress& progress,
                          std::vector<Error>* warnings);

}  // namespace lore::distill
