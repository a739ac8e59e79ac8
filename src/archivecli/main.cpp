// lore-archive: `lore export` and `lore import`. lore replaces itself with
// this program for those two verbs (src/cli/cmd_archive.cpp), so that the
// hot-path binary links no libarchive (and the fifteen libraries it pulls
// in) and can be linked fully static (docs/dependencies.md). It speaks as
// lore: its usage reads "lore export ...", its errors begin with "lore: ".
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/guard.h"
#include "cli/report.h"
#include "lore/app/archive.h"
#include "lore/app/store.h"
#include "lore/version.h"

namespace {

namespace app = lore::app;
using lore::cli::WriteError;

void PrintLines(const std::vector<std::string>& lines) {
  for (const auto& line : lines) std::cout << line << "\n";
}

int RunExport(const app::ExportRequest& a) {
  auto r = app::Export(a);
  if (!r) return WriteError(r.error());
  PrintLines(r->lines);
  return 0;
}

int RunImport(const app::ImportRequest& a) {
  auto r = app::Import(a);
  if (!r) return WriteError(r.error());
  PrintLines(r->lines);
  return 0;
}

int Run(int argc, char** argv) {
  CLI::App app{"lore export / lore import: a whole store as one tar.gz archive", "lore"};
  app.set_version_flag("--version", std::string("lore-archive ") + lore::kVersionLine);
  app.require_subcommand(1, 1);

  app::ExportRequest ex;
  CLI::App* e =
      app.add_subcommand("export", "Write the store's files (not the derived index) to a tar.gz");
  e->add_option("repo", ex.repo, "A git remote URL or the path of a checkout")->required();
  e->add_option("-o,--output", ex.out,
                "The archive to write ('-' for standard output; default <key>.lore.tar.gz)");

  app::ImportRequest im;
  CLI::App* i =
      app.add_subcommand("import", "Restore a store from an archive made by 'lore export'");
  i->add_option("archive", im.archive, "The .tar.gz written by 'lore export'")->required();
  i->add_option("--repo", im.repo,
                "Restore into this repository's store (default: the key in the archive)");
  i->add_flag("--force", im.force, "Replace a store that is not empty (its contents are lost)");
  i->add_flag("--with-config", im.with_config,
              "Apply the archive's config.toml (default: keep it aside as config.toml.imported)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& err) {
    if (err.get_exit_code() == 0) return app.exit(err);  // --help, --version
    std::cerr << "lore: " << err.what() << "\nRun 'lore help";
    for (const CLI::App* sub : app.get_subcommands()) std::cerr << ' ' << sub->get_name();
    std::cerr << "' for usage.\n";
    return app::kExitUsage;
  }
  return e->parsed() ? RunExport(ex) : RunImport(im);
}

}  // namespace

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore: ", lore::cli::kExitInternal, [&] { return Run(argc, argv); });
}
