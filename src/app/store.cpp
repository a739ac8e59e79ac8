#include "lore/app/store.h"

#include <chrono>

#include "lore/fs/fd.h"

namespace lore::app {

Result<store::Store> LocateStore(std::string_view repo) {
  return store::Store::Locate(repo, store::Env::FromProcess());
}

Result<store::Store> LocateWorkedIn(std::string_view folder) {
  return store::Store::Locate(folder, store::Env::FromProcess(), store::Store::Folder::kWorkedIn);
}

Result<store::Store> OpenStore(std::string_view repo) {
  LORE_ASSIGN(store::Store st, LocateStore(repo));
  LORE_TRY(st.Ensure(std::chrono::system_clock::now(), store::RawCheck::kSkip));
  return st;
}

Result<OpenedStore> OpenStoreWithSettings(std::string_view repo) {
  LORE_ASSIGN(store::Store st, OpenStore(repo));
  LORE_ASSIGN(consolidate::Settings settings, consolidate::LoadSettings(st));
  return OpenedStore{std::move(st), std::move(settings)};
}

Result<consolidate::Settings> LoadSettings(const store::Store& store) {
  return consolidate::LoadSettings(store);
}

lore::Status EnsureStore(const store::Store& store, text::TimePoint now) {
  return store.Ensure(now, store::RawCheck::kSkip);
}

Result<bool> CheckExisting(const store::Store& store) {
  if (!fs::Exists(store.dir())) return false;
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  return true;
}

}  // namespace lore::app
