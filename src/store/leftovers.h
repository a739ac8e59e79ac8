// Leftovers of writers that died: temporary files and folders named by
// fs::TempPath whose writer's pid is no longer a live process, and the
// bundle folders of a `lore distill` that was killed (.okf.new, .okf.old).
//
// Where they are looked for: everything under the store directory (symlinks
// are never followed), and in the stores' root the hidden siblings of this
// store (`.<key>.new.*` of a skeleton being built, `.<key>.replaced.*` of an
// import) and `.import.new.*` of an import unpacking an archive. A temporary
// whose pid is alive is another lore at work and is never listed.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::store {

struct Leftover {
  std::string path;
  bool folder = false;
  pid_t pid = 0;  // the writer's pid; 0 for the distill folders (no pid in their name)
};

// Every leftover of `store`, sorted by path.
std::vector<Leftover> FindLeftovers(const Store& store);

// The problem line `lore check` reports for one leftover (repair: run
// `lore check --repair`).
Error LeftoverProblem(const Leftover& l);

// Removes every leftover found now (the distill folders only while no distill
// runs and okf/ is in place); `removed` gets the paths removed. The first
// failure is returned, after trying the rest.
Status RemoveLeftovers(const Store& store, std::vector<std::string>* removed);

}  // namespace lore::store
