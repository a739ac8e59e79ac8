// `lore distill` (docs/distill.md) as one use case: the deterministic
// bundle, or with index.md's digest written by the model (lore-llm hands in
// `options.digest`).
#pragma once

#include <string>
#include <vector>

#include "lore/distill/distill.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::app {

struct Distilled {
  distill::Summary summary;
  std::string text;             // distill::Describe, for standard output
  std::vector<Error> warnings;  // to show
};

Result<Distilled> Distill(const store::Store& store, const distill::Options& options = {});

}  // namespace lore::app
