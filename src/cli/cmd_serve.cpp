// lore serve: the page (docs/serve.md). Run by lore-serve (src/servecli/), the
// program beside lore that holds the HTTP server, so that lore itself links
// none.
#include "cli/command.h"

namespace lore::cli {

void RegisterServeCommands(Registry& r) {
  r.Forward("serve", "Serve a page of the store on 127.0.0.1: browse, search, review, curate",
            "lore-serve",
            Error{ErrorCode::kUnavailable, "the page's program is missing", "", 0,
                  "install lore-serve next to lore"});
}

}  // namespace lore::cli
