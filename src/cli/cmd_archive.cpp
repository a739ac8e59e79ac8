// lore export / lore import: a whole store as one tar.gz archive. Both are
// run by lore-archive (src/archivecli/main.cpp), the program beside lore
// that links libarchive, so that lore itself links no archive code and can be
// fully static (docs/dependencies.md).
#include "cli/command.h"

namespace lore::cli {

void RegisterArchiveCommands(Registry& r) {
  const Error missing{ErrorCode::kUnavailable, "the archive program is missing", "", 0,
                      "install lore-archive next to lore"};
  r.Forward("export", "Write the store's files (not the derived index) to a tar.gz", "lore-archive",
            missing);
  r.Forward("import", "Restore a store from an archive made by 'lore export'", "lore-archive",
            missing);
}

}  // namespace lore::cli
