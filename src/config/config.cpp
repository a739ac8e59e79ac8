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

namespace {

// The text of `value` as a TOML basic string.
std::string Quoted(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// Byte offset of the start of 1-based line `line` (text.size() past the end).
size_t LineStart(std::string_view text, int64_t line) {
  size_t pos = 0;
  for (int64_t l = 1; l < line && pos < text.size(); ++l) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return text.size();
    pos = nl + 1;
  }
  return pos;
}

std::string SetOne(std::string text, const Config& c, const std::string& key,
                   const std::string& value) {
  const std::string quoted = Quoted(value);
  if (int64_t line = c.LineOf(key); line > 0) {
    size_t start = LineStart(text, line);
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    size_t eq = text.find('=', start);
    if (eq == std::string::npos || eq >= end) return text;  // read back below: refused
    return text.substr(0, eq) + "= " + quoted + text.substr(end);
  }
  // The deepest table of the key that has a [header] line.
  std::string table = key;
  while (true) {
    size_t dot = table.rfind('.');
    if (dot == std::string::npos) break;
    table.resize(dot);
    int64_t line = c.LineOf(table);
    if (line <= 0) continue;
    size_t start = LineStart(text, line);
    size_t end = text.find('\n', start);
    // Only the table's own [header] line ([memory.staging] also creates
    // `memory`, and dotted keys make tables with no header at all).
    std::string_view header(text.data() + start,
                            (end == std::string::npos ? text.size() : end) - start);
    size_t open = header.find_first_not_of(" \t");
    size_t close = header.find(']');
    if (open == std::string_view::npos || header[open] != '[' || close == std::string_view::npos ||
        header.substr(open + 1, 1) == "[")
      continue;
    std::string_view name = header.substr(open + 1, close - open - 1);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (name != table) continue;
    std::string rest = key.substr(table.size() + 1);
    std::string add = rest + " = " + quoted + "\n";
    if (end == std::string::npos) return text + "\n" + add;
    return text.insert(end + 1, add);
  }
  // None: a dotted key in the root table, before the first header.
  size_t header = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t first = text.find_first_not_of(" \t", pos);
    if (first != std::string::npos && text[first] == '[') {
      header = pos;
      break;
    }
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      header = text.size();
      break;
    }
    pos = nl + 1;
    header = pos;
  }
  std::string add = key + " = " + quoted + "\n";
  if (header == text.size() && !text.empty() && text.back() != '\n') add = "\n" + add;
  return text.insert(header, add);
}

}  // namespace

Result<std::string> SetStrings(std::string_view text, const std::string& path,
                               const std::vector<std::pair<std::string, std::string>>& keys) {
  std::string out(text);
  for (const auto& [key, value] : keys) {
    LORE_ASSIGN(Config before, Config::Parse(out, path));
    std::string next = SetOne(out, before, key, value);
    auto after = Config::Parse(next, path);
    auto got = after ? after->Get(Key<std::string>{key, ""}) : Result<std::string>("");
    if (!after || !got || *got != value) {
      return Fail(ErrorCode::kInvalidInput, "cannot set " + key + " in this config.toml's layout",
                  path, before.LineOf(key),
                  "set " + key + " = " + Quoted(value) + " in it by hand");
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace lore::config
