#include <string_view>

#include "cli/command.h"
#include "cli/guard.h"

int main(int argc, char** argv) {
  // Hooks run inside the agent: whatever happens, they exit 0.
  const bool hook = argc > 1 && std::string_view(argv[1]) == "hook";
  return lore::cli::RunGuarded("lore: ", hook ? 0 : lore::cli::kExitInternal,
                               [&] { return lore::cli::Main(argc, argv); });
}
