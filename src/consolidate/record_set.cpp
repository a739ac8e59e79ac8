#include "consolidate/record_set.h"

#include "lore/fs/fd.h"

namespace lore::consolidate::detail {

Result<doc::Record*> RecordSet::Get(doc::Kind kind, std::string_view slug) {
  std::string rel = doc::RelPath(kind, slug);
  auto it = items_.find(rel);
  if (it == items_.end()) {
    Item item;
    LORE_ASSIGN(auto bytes, ws_.Read(rel));
    if (bytes) {
      std::string path = fs::Join(ws_.dir(), rel);
      LORE_ASSIGN(item.record, doc::ParseRecord(kind, *bytes, path));
      if (!item.record.issues.empty()) {
        const doc::Issue& i = item.record.issues.front();
        return Fail(ErrorCode::kCorrupt, i.message, path, i.line, i.repair);
      }
      item.present = true;
    }
    it = items_.emplace(rel, std::move(item)).first;
  }
  return it->second.present ? &it->second.record : nullptr;
}

doc::Record* RecordSet::Create(doc::Kind kind, std::string_view slug, doc::Record record) {
  Item& item = items_[doc::RelPath(kind, slug)];
  item.record = std::move(record);
  item.present = true;
  item.dirty = true;
  return &item.record;
}

void RecordSet::Touch(doc::Kind kind, std::string_view slug) {
  auto it = items_.find(doc::RelPath(kind, slug));
  if (it != items_.end()) it->second.dirty = true;
}

Status RecordSet::Flush() {
  for (auto& [rel, item] : items_) {
    if (!item.dirty || !item.present) continue;
    LORE_TRY(ws_.Write(rel, doc::RenderRecord(item.record)));
    item.dirty = false;
  }
  return Ok();
}

}  // namespace lore::consolidate::detail
