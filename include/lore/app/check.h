// `lore check` (docs/capture.md) as one use case: the whole store checked,
// every file kind with its own module's reader; leftovers of dead writers
// reported (or removed first, with repair, as are torn log tails, unreadable
// cursors and a damaged search index: app/check_files.h); and the secrets
// scan of `lore check --secrets` (docs/secrets.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::app {

struct Checked {
  std::vector<std::string> removed;   // with repair: the leftovers removed
  std::vector<std::string> repaired;  // with repair: one line per file repaired
  std::optional<Error> repair_error;  // with repair: why the removal stopped
  std::vector<Error> problems;        // what makes the store fail its check
  std::vector<Error> warnings;        // leftovers of dead writers (never a failure)
};
Checked Check(const store::Store& store, bool repair);

// One private span or secret left in the store: in a file's line, or (line 0)
// in the file's name. Never the secret itself.
struct SecretFound {
  std::string path;  // the file, absolute
  int64_t line = 0;  // 1-based; 0 for the file name
  std::string rule;  // the redaction rule's name
};
Result<std::vector<SecretFound>> FindSecrets(const store::Store& store);

}  // namespace lore::app
