// lore::config: the settings of one store, read from its `config.toml`
// (docs/config.md).
//
// Keys are dotted paths into TOML tables: `memory.proposals.quota_per_wave`
// is the key `quota_per_wave` of the table `[memory.proposals]`. A missing
// file means every setting has its default. Each module owns its keys: it
// declares them as `Key<T>` constants beside the code that uses them and
// reads them through the typed getters below, so adding a setting needs no
// edit here (only a row in docs/config.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

namespace lore::config {

// A setting: its dotted name and the value used when it is not set.
template <class T>
struct Key {
  std::string_view name;
  T fallback;
};

// The parsed contents of one config.toml (possibly none).
class Config {
 public:
  // Reads `path`. A missing file gives the defaults; a file that is not
  // valid TOML (or not valid UTF-8) is an Error naming `<path>:<line>` and the
  // repair. Refuses a symlink.
  static Result<Config> Load(const std::string& path);
  // Parses `text` as if read from `path` (for tests and other sources).
  static Result<Config> Parse(std::string_view text, const std::string& path);
  // Settings with nothing set.
  static Config Defaults();

  Config(Config&&) noexcept;
  Config& operator=(Config&&) noexcept;
  ~Config();

  // The value of `key`, or its fallback when unset. A value of the wrong type
  // (or, for integers, outside int64) is an Error naming `<path>:<line>`.
  // Doubles accept TOML integers too.
  Result<bool> Get(const Key<bool>& key) const;
  Result<int64_t> Get(const Key<int64_t>& key) const;
  Result<double> Get(const Key<double>& key) const;
  Result<std::string> Get(const Key<std::string>& key) const;

  // True when `name` is set in the file.
  bool Has(std::string_view name) const;
  // The keys set directly in table `table` (dotted name; "" is the root),
  // sorted. Lets a module report keys it does not know.
  std::vector<std::string> KeysIn(std::string_view table) const;
  // The 1-based line where `name` is set, 0 when unset.
  int64_t LineOf(std::string_view name) const;

  // The file this came from (may not exist).
  const std::string& path() const { return path_; }

  // An Error about the value of `name`, naming `<path>:<line>`.
  Error ValueError(std::string_view name, std::string what, std::string repair) const;

 private:
  struct Impl;
  Config(std::string path, std::unique_ptr<Impl> impl);
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

// `text` (the contents of config.toml at `path`) with each key set to its
// string value: a key already set is changed on its line (the rest of the
// file kept byte for byte), a missing one is added under its table's header
// or, with none, as a dotted key before the first header. The result is read
// back; a key that cannot be set this way (a value spread over lines, a
// layout this does not follow) is an Error naming the key and asking to set
// it by hand.
Result<std::string> SetStrings(std::string_view text, const std::string& path,
                               const std::vector<std::pair<std::string, std::string>>& keys);

}  // namespace lore::config
