// The remote-to-key normaliser (store/key.cpp): any remote or identity gives
// either an error or a key of [A-Za-z0-9._-] that neither starts nor ends with
// '.', '_' or '-'.
#include "check.h"
#include "store/key.h"

namespace {

bool IsKeyChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

bool IsEdge(char c) { return c == '.' || c == '_' || c == '-'; }

void CheckKey(std::string_view identity) {
  auto key = lore::store::KeyFromIdentity(identity);
  if (!key) return;
  LORE_FUZZ_CHECK(!key->empty());
  for (char c : *key) LORE_FUZZ_CHECK(IsKeyChar(c));
  LORE_FUZZ_CHECK(!IsEdge(key->front()) && !IsEdge(key->back()));
  LORE_FUZZ_CHECK(key->size() <= identity.size());
  // A key is its own key.
  auto again = lore::store::KeyFromIdentity(*key);
  LORE_FUZZ_CHECK(again && *again == *key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = lore::fuzz::Input(data, size);
  std::string remote = lore::store::NormaliseRemote(input);
  LORE_FUZZ_CHECK(remote.size() <= input.size());
  CheckKey(remote);
  CheckKey(input);
  return 0;
}
