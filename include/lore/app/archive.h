// `lore export` and `lore import` as use cases (docs/agents.md): the store
// found from the repository argument, the archive written or restored
// (archive/archive.h), and what to tell the person as lines. Only lore-archive
// calls them (it links libarchive); src/app/archive.cpp is compiled apart from
// the rest of the layer (its own unity group), so that no other executable
// pulls libarchive in.
#pragma once

#include <string>
#include <vector>

#include "lore/archive/archive.h"  // Summary, ImportReport: the types named below
#include "lore/error.h"

namespace lore::app {

struct ExportRequest {
  std::string repo;  // a git remote URL or a checkout's path
  std::string out;   // "" : <key>.lore.tar.gz; "-": standard output
};

struct Exported {
  archive::Summary summary;
  std::vector<std::string> lines;  // nothing when written to standard output
};

Result<Exported> Export(const ExportRequest& request);

struct ImportRequest {
  std::string archive;
  std::string repo;  // "": the key in the archive, under the stores' root
  bool force = false;
  bool with_config = false;
};

struct Imported {
  archive::ImportReport report;
  std::vector<std::string> lines;  // what was restored, the settings, the injected files
};

Result<Imported> Import(const ImportRequest& request);

}  // namespace lore::app
