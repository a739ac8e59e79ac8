#include "lore/config/config.h"

#include <algorithm>

#include <toml++/toml.h>

#include "lore/fs/fd.h"
#include "lore/text/utf8.h"

namespace lore::config {

struct Config::Impl {
  toml::table table;
};

namespace {

constexpr const char* kSyntaxRepair =
    "fix the TOML at that line (docs/config.md lists every key), or move config.toml away to use "
    "the defaults";

int64_t LineAtOffset(std::string_view s, size_t offset) {
  int64_t line = 1;
  for (size_t i = 0; i < offset && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

const char* TypeName(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date or time";
  }
}

}  // namespace

Config::Config(std::string path, std::unique_ptr<Impl> impl)
    : path_(std::move(path)), impl_(std::move(impl)) {}
Config::Config(Config&&) noexcept = default;
Config& Config::operator=(Config&&) noexcept = default;
Config::~Config() = default;

Config Config::Defaults() { return Config("", std::make_unique<Impl>()); }

Result<Config> Config::Parse(std::string_view text, const std::string& path) {
  if (size_t bad = 0; !text::IsValidUtf8(text, &bad)) {
    return Fail(ErrorCode::kCorrupt, "config.toml is not valid UTF-8", path,
                LineAtOffset(text, bad), kSyntaxRepair);
  }
  toml::parse_result parsed = toml::parse(text, std::string_view(path));
  if (!parsed) {
    const toml::parse_error& e = parsed.error();
    return Fail(ErrorCode::kCorrupt, "malformed config: " + std::string(e.description()), path,
                static_cast<int64_t>(e.source().begin.line), kSyntaxRepair);
  }
  auto impl = std::make_unique<Impl>();
  impl->table = std::move(parsed).table();
  return Config(path, std::move(impl));
}

Result<Config> Config::Load(const std::string& path) {
  auto text = fs::ReadFile(path, fs::Kind::kConfig);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return Config(path, std::make_unique<Impl>());
    return tl::unexpected(text.error());
  }
  return Parse(*text, path);
}

Error Config::ValueError(std::string_view name, std::string what, std::string repair) const {
  return Error{ErrorCode::kCorrupt, std::string(name) + ": " + what, path_, LineOf(name),
               std::move(repair)};
}

int64_t Config::LineOf(std::string_view name) const {
  const toml::node* n = impl_->table.at_path(name).node();
  return n ? static_cast<int64_t>(n->source().begin.line) : 0;
}

bool Config::Has(std::string_view name) const {
  return impl_->table.at_path(name).node() != nullptr;
}

std::vector<std::string> Config::KeysIn(std::string_view table) const {
  const toml::table* t = table.empty() ? &impl_->table : impl_->table.at_path(table).as_table();
  std::vector<std::string> out;
  if (t == nullptr) return out;
  for (const auto& [k, v] : *t) {
    out.push_back(table.empty() ? std::string(k.str())
                                : std::string(table) + "." + std::string(k.str()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

template <class T>
Error WrongType(const Config& c, std::string_view name, const toml::node& n, const char* want) {
  return c.ValueError(
      name, std::string("expected ") + want + ", found " + TypeName(n),
      std::string("set ") + std::string(name) + " to " + want + " (see docs/config.md)");
}

}  // namespace

Result<bool> Config::Get(const Key<bool>& key) const {
  const toml::node* n = impl_->table.at_path(key.name).node();
  if (n == nullptr) return key.fallback;
  if (const auto* v = n->as_boolean()) return v->get();
  return tl::unexpected(WrongType<bool>(*this, key.name, *n, "true or false"));
}

Result<int64_t> Config::Get(const Key<int64_t>& key) const {
  const toml::node* n = impl_->table.at_path(key.name).node();
  if (n == nullptr) return key.fallback;
  if (const auto* v = n->as_integer()) return v->get();
  return tl::unexpected(WrongType<int64_t>(*this, key.name, *n, "an integer"));
}

Result<double> Config::Get(const Key<double>& key) const {
  const toml::node* n = impl_->table.at_path(key.name).node();
  if (n == nullptr) return key.fallback;
  if (const auto* v = n->as_floating_point()) return v->get();
  if (const auto* v = n->as_integer()) return static_cast<double>(v->get());
  return tl::unexpected(WrongType<double>(*this, key.name, *n, "a number"));
}

Result<std::string> Config::Get(const Key<std::string>& key) const {
  const toml::node* n = impl_->table.at_path(key.name).node();
  if (n == nullptr) return key.fallback;
  if (const auto* v = n->as_string()) return v->get();
  return tl::unexpected(WrongType<std::string>(*this, key.name, *n, "a string"));
}

}  // namespace lore::config
