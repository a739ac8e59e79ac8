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
#include "lore/app/store.h"
#include "lore/archive/archive.h"
#include "lore/fs/fd.h"
#include "lore/store/store.h"
#include "lore/version.h"

namespace {

namespace archive = lore::archive;
namespace store = lore::store;

namespace app = lore::app;
using lore::cli::WriteError;

struct ExportArgs {
  std::string repo;
  std::string out;
};

struct ImportArgs {
  std::string archive;
  std::string repo;
  bool force = false;
  bool with_config = false;
};

int RunExport(const ExportArgs& a) {
  auto st = app::LocateStore(a.repo);
  if (!st) return WriteError(st.error());
  std::string out = a.out.empty() ? st->key() + ".lore.tar.gz" : a.out;
  auto r = archive::Export(*st, out);
  if (!r) return WriteError(r.error());
  if (out != "-") {
    std::cout << "exported " << r->files << " files (" << r->bytes << " bytes) of " << r->key
              << " to " << r->path << "\n";
  }
  return 0;
}

int RunImport(const ImportArgs& a) {
  auto env = store::Env::FromProcess();
  std::string root, key;
  if (!a.repo.empty()) {
    auto st = app::LocateStore(a.repo);
    if (!st) return WriteError(st.error());
    root = st->root();
    key = st->key();
  } else {
    auto r = store::StoresRoot(env);
    if (!r) return WriteError(r.error());
    root = *r;
  }
  archive::ImportOptions options;
  options.key = key;
  options.overwrite = a.force ? archive::Overwrite::kForce : archive::Overwrite::kRefuse;
  options.with_config = a.with_config;
  auto r = archive::Import(a.archive, root, options);
  if (!r) return WriteError(r.error());
  const archive::Summary& s = r->summary;
  std::cout << "imported " << s.files << " files (" << s.bytes << " bytes) into " << s.path
            << "\n";
  if (r->config == "kept-aside") {
    std::cout << "settings: the archive's config.toml was not applied; it is kept as "
              << lore::fs::Join(s.path, archive::kImportedConfig)
              << " (import again with --with-config to apply it)\n";
  }
  for (const auto& c : r->setting_changes) std::cout << "setting changed: " << c << "\n";
  for (const auto& f : r->injected) {
    std::cout << "session start will inject the archive's " << f << "\n";
  }
  return 0;
}

int Run(int argc, char** argv) {
  CLI::App app{"lore export / lore import: a whole store as one tar.gz archive", "lore"};
  app.set_version_flag("--version", std::string("lore-archive ") + lore::kVersion);
  app.require_subcommand(1, 1);

  ExportArgs ex;
  CLI::App* e =
      app.add_subcommand("export", "Write the store's files (not the derived index) to a tar.gz");
  e->add_option("repo", ex.repo, "A git remote URL or the path of a checkout")->required();
  e->add_option("-o,--output", ex.out,
                "The archive to write ('-' for standard output; default <key>.lore.tar.gz)");

  ImportArgs im;
  CLI::App* i = app.add_subcommand("import", "Restore a store from an archive made by 'lore export'");
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
  return lore::cli::RunGuarded("lore: ", lore::cli::kExitInternal,
                               [&] { return Run(argc, argv); });
}
