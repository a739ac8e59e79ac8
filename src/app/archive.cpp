#include "lore/app/archive.h"

#include "lore/app/store.h"
#include "lore/fs/fd.h"
#include "lore/store/store.h"

namespace lore::app {

Result<Exported> Export(const ExportRequest& request) {
  LORE_ASSIGN(store::Store st, LocateStore(request.repo));
  const std::string out = request.out.empty() ? st.key() + ".lore.tar.gz" : request.out;
  Exported e;
  LORE_ASSIGN(e.summary, archive::Export(st, out));
  if (out != "-") {
    e.lines.push_back("exported " + std::to_string(e.summary.files) + " files (" +
                      std::to_string(e.summary.bytes) + " bytes) of " + e.summary.key + " to " +
                      e.summary.path);
  }
  return e;
}

Result<Imported> Import(const ImportRequest& request) {
  std::string root, key;
  if (!request.repo.empty()) {
    LORE_ASSIGN(store::Store st, LocateStore(request.repo));
    root = st.root();
    key = st.key();
  } else {
    LORE_ASSIGN(root, store::StoresRoot(store::Env::FromProcess()));
  }
  archive::ImportOptions options;
  options.key = key;
  options.overwrite = request.force ? archive::Overwrite::kForce : archive::Overwrite::kRefuse;
  options.with_config = request.with_config;
  Imported im;
  LORE_ASSIGN(im.report, archive::Import(request.archive, root, options));
  const archive::Summary& s = im.report.summary;
  im.lines.push_back("imported " + std::to_string(s.files) + " files (" + std::to_string(s.bytes) +
                     " bytes) into " + s.path);
  if (im.report.config == "kept-aside") {
    im.lines.push_back("settings: the archive's config.toml was not applied; it is kept as " +
                       fs::Join(s.path, archive::kImportedConfig) +
                       " (import again with --with-config to apply it)");
  }
  for (const auto& c : im.report.setting_changes) im.lines.push_back("setting changed: " + c);
  if (const int64_t n = im.report.proposed_pages + im.report.proposed_learnings; n > 0) {
    im.lines.push_back("review: the archive's " + std::to_string(im.report.proposed_pages) +
                       " knowledge pages and " + std::to_string(im.report.proposed_learnings) +
                       " learnings are not live; they wait as " + std::to_string(n) +
                       " proposals for your review (lore review " + s.key +
                       "), the files kept whole under " + fs::Join(s.path, "imported") + "/");
  }
  for (const auto& f : im.report.injected) {
    im.lines.push_back("session start will inject the archive's " + f);
  }
  return im;
}

}  // namespace lore::app
