// lore export / lore import: a whole store as one tar.gz archive.
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/archive/archive.h"
#include "lore/fs/fd.h"
#include "lore/store/store.h"

namespace lore::cli {
namespace {

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
  auto store = store::Store::Locate(a.repo, store::Env::FromProcess());
  if (!store) return ReportError(store.error());
  std::string out = a.out.empty() ? store->key() + ".lore.tar.gz" : a.out;
  auto r = archive::Export(*store, out);
  if (!r) return ReportError(r.error());
  if (out != "-") {
    Print("exported " + std::to_string(r->files) + " files (" + std::to_string(r->bytes) +
          " bytes) of " + r->key + " to " + r->path);
  }
  return kExitOk;
}

int RunImport(const ImportArgs& a) {
  auto env = store::Env::FromProcess();
  std::string root, key;
  if (!a.repo.empty()) {
    auto store = store::Store::Locate(a.repo, env);
    if (!store) return ReportError(store.error());
    root = store->root();
    key = store->key();
  } else {
    auto r = store::StoresRoot(env);
    if (!r) return ReportError(r.error());
    root = *r;
  }
  archive::ImportOptions options;
  options.key = key;
  options.overwrite = a.force ? archive::Overwrite::kForce : archive::Overwrite::kRefuse;
  options.with_config = a.with_config;
  auto r = archive::Import(a.archive, root, options);
  if (!r) return ReportError(r.error());
  const archive::Summary& s = r->summary;
  std::string out = "imported " + std::to_string(s.files) + " files (" + std::to_string(s.bytes) +
                    " bytes) into " + s.path + "\n";
  if (r->config == "kept-aside") {
    out += "settings: the archive's config.toml was not applied; it is kept as " +
           fs::Join(s.path, archive::kImportedConfig) +
           " (import again with --with-config to apply it)\n";
  }
  for (const auto& c : r->setting_changes) out += "setting changed: " + c + "\n";
  for (const auto& f : r->injected) out += "session start will inject the archive's " + f + "\n";
  Print(out, false);
  return kExitOk;
}

}  // namespace

void RegisterArchiveCommands(Registry& r) {
  auto ex = std::make_shared<ExportArgs>();
  CLI::App* e = r.Add("export", "Write the store's files (not the derived index) to a tar.gz",
                      [ex]() { return RunExport(*ex); });
  e->add_option("repo", ex->repo, "A git remote URL or the path of a checkout")->required();
  e->add_option("-o,--output", ex->out,
                "The archive to write ('-' for standard output; default <key>.lore.tar.gz)");

  auto im = std::make_shared<ImportArgs>();
  CLI::App* i = r.Add("import", "Restore a store from an archive made by 'lore export'",
                      [im]() { return RunImport(*im); });
  i->add_option("archive", im->archive, "The .tar.gz written by 'lore export'")->required();
  i->add_option("--repo", im->repo,
                "Restore into this repository's store (default: the key in the archive)");
  i->add_flag("--force", im->force, "Replace a store that is not empty (its contents are lost)");
  i->add_flag("--with-config", im->with_config,
              "Apply the archive's config.toml (default: keep it aside as config.toml.imported)");
}

}  // namespace lore::cli
