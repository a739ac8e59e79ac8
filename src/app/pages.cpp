#include "lore/app/pages.h"

#include <sys/stat.h>

#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/store/layout.h"
#include "text/lines.h"

namespace lore::app {
namespace {

constexpr std::string_view kOkfPrefix = "okf/";

// A file name of okf/ that a page may have: one plain component.
bool PlainName(std::string_view name) {
  return !name.empty() && name[0] != '.' && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

// "title: …" of a page's frontmatter, cheaply (first 20 lines).
std::string TitleOf(const std::string& text) {
  int i = 0;
  for (std::string_view line : text::Lines(text)) {
    if (i >= 20) break;
    if (line.rfind("title:", 0) == 0) {
      std::string t(line.substr(6));
      t.erase(0, t.find_first_not_of(" \t\""));
      while (!t.empty() && (t.back() == ' ' || t.back() == '"' || t.back() == '\r')) t.pop_back();
      return t;
    }
    if (i > 0 && line == "---") break;
    ++i;
  }
  return {};
}

Result<std::string> Read(const store::Store& store, std::string_view rel) {
  return fs::ReadFileBeneath(store.dir(), rel,
                             rel == store::kIndexFile ? fs::Kind::kIndexPage : fs::Kind::kRecord);
}

}  // namespace

Result<std::vector<Page>> ListPages(const store::Store& store) {
  std::vector<Page> out;
  if (!fs::Exists(store.okf_dir())) return out;
  LORE_TRY(fs::RefuseSymlink(store.okf_dir(), "okf directory"));
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(store.okf_dir()));
  for (const auto& e : entries) {
    if (e.type != fs::EntryType::kFile || !PlainName(e.rel)) continue;
    Page page{std::string(kOkfPrefix) + e.rel, e.rel, "", false};
    if (auto text = Read(store, page.rel)) page.title = TitleOf(*text);
    out.push_back(std::move(page));
  }
  auto st = fs::LStat(store.Path(store::kSummaryFile));
  if (st && S_ISREG(st->st_mode))
    out.push_back(Page{std::string(store::kSummaryFile), "", "", true});
  return out;
}

Result<std::string> ReadPage(const store::Store& store, std::string_view rel) {
  const bool okf =
      rel.substr(0, kOkfPrefix.size()) == kOkfPrefix && PlainName(rel.substr(kOkfPrefix.size()));
  if (!okf && rel != store::kSummaryFile) {
    return Fail(ErrorCode::kNotFound, "no such page", std::string(rel));
  }
  return Read(store, rel);
}

}  // namespace lore::app
