#include "lore/app/distill.h"

namespace lore::app {

Result<Distilled> Distill(const store::Store& store, const distill::Options& options) {
  LORE_ASSIGN(distill::Summary summary, distill::Distill(store, options));
  Distilled r;
  r.warnings = summary.warnings;
  r.text = distill::Describe(summary, store.okf_dir());
  r.summary = std::move(summary);
  return r;
}

}  // namespace lore::app
