#include "archive/libarchive.h"

#include <dlfcn.h>

#include <mutex>

namespace lore::archive {
namespace {

constexpr const char* kRepair = "install libarchive (Debian: apt-get install libarchive13)";

Result<const LibArchive*> LoadOnce() {
  void* lib = ::dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = ::dlopen("libarchive.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = ::dlerror();
    return Fail(ErrorCode::kUnavailable,
                std::string("cannot load libarchive (") + (why ? why : "not found") + ")",
                "libarchive.so.13", 0, kRepair);
  }
  static LibArchive fns;
  bool ok = true;
  std::string missing;
#define LORE_ARCHIVE_FN(name)                                                  \
  fns.name = reinterpret_cast<decltype(&::name)>(::dlsym(lib, #name));         \
  if (!fns.name) {                                                             \
    ok = false;                                                                \
    missing = #name;                                                           \
  }
#include "archive/libarchive_fns.inc"
#undef LORE_ARCHIVE_FN
  if (!ok) {
    return Fail(ErrorCode::kUnavailable, "libarchive lacks the function " + missing,
                "libarchive.so.13", 0, "install libarchive 3.x");
  }
  return &fns;
}

}  // namespace

Result<const LibArchive*> Load() {
  static std::once_flag once;
  static Result<const LibArchive*> loaded = Fail(ErrorCode::kInternal, "not loaded");
  std::call_once(once, [] { loaded = LoadOnce(); });
  return loaded;
}

}  // namespace lore::archive
