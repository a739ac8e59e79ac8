#include "lore/app/lint.h"

#include "lore/fs/fd.h"
#include "lore/lint/scan.h"

namespace lore::app {

Result<LintedStore> LintStore(const store::Store& store) {
  if (!fs::Exists(store.dir())) {
    return Fail(ErrorCode::kNotFound, "no store for this repository", store.dir(), 0,
                "check the <repo> argument, or create the store with 'lore ensure'");
  }
  LORE_ASSIGN(lint::StoreLint linted, lint::LintStoreAt(store.dir()));
  return LintedStore{store.dir(), linted.records, std::move(linted.report)};
}

}  // namespace lore::app
