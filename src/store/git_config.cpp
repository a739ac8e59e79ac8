#include "store/git_config.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include "lore/fs/fd.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::store {
namespace {

using text::Trim;

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string FirstLine(std::string s) {
  size_t nl = s.find_first_of("\r\n");
  if (nl != std::string::npos) s.resize(nl);
  return std::string(Trim(s));
}

// Parses a config value: strips comments outside quotes, handles "…" and escapes.
std::string ParseValue(std::string_view raw) {
  std::string out;
  bool quoted = false;
  std::string pending_space;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '"') {
      quoted = !quoted;
      continue;
    }
    if (!quoted && (c == '#' || c == ';')) break;
    if (c == '\\' && i + 1 < raw.size()) {
      char n = raw[++i];
      out += pending_space;
      pending_space.clear();
      out += n == 'n' ? '\n' : n == 't' ? '\t' : n == 'b' ? '\b' : n;
      continue;
    }
    if (!quoted && (c == ' ' || c == '\t')) {
      if (!out.empty()) pending_space += c;
      continue;
    }
    out += pending_space;
    pending_space.clear();
    out += c;
  }
  return out;
}

}  // namespace

std::optional<std::string> GitConfigValue(std::string_view config, std::string_view section,
                                          std::string_view subsection, std::string_view key) {
  std::optional<std::string> found;
  bool in_section = false;
  for (std::string_view line : text::Lines(config, true)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line[0] == '[') {
      size_t close = line.find(']');
      if (close == std::string_view::npos) {
        in_section = false;
        continue;
      }
      std::string_view head = line.substr(1, close - 1);
      std::string_view name = head, sub;
      bool has_sub = false;
      if (size_t q = head.find('"'); q != std::string_view::npos) {
        name = Trim(head.substr(0, q));
        size_t q2 = head.rfind('"');
        std::string s;
        for (size_t i = q + 1; i < q2; ++i) {
          if (head[i] == '\\' && i + 1 < q2) ++i;
          s += head[i];
        }
        in_section = IEquals(name, section) && s == subsection;
        has_sub = true;
      } else if (size_t dot = head.find('.'); dot != std::string_view::npos) {
        name = head.substr(0, dot);
        sub = head.substr(dot + 1);
        in_section = IEquals(name, section) && IEquals(sub, subsection);
        has_sub = true;
      }
      if (!has_sub) in_section = IEquals(Trim(name), section) && subsection.empty();
      // A key may follow the header on the same line.
      line = Trim(line.substr(close + 1));
      if (line.empty()) continue;
    }
    if (!in_section) continue;
    size_t eq = line.find('=');
    std::string_view name = Trim(line.substr(0, eq));
    if (!IEquals(name, key)) continue;
    found =
        eq == std::string_view::npos ? std::string("true") : ParseValue(Trim(line.substr(eq + 1)));
  }
  return found;
}

std::optional<Checkout> FindCheckout(const std::string& path) {
  std::string dir = path;
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) dir = fs::Dirname(dir);
  for (;;) {
    std::string dotgit = fs::Join(dir, ".git");
    if (::stat(dotgit.c_str(), &st) == 0) {
      std::string gitdir;
      if (S_ISDIR(st.st_mode)) {
        gitdir = dotgit;
      } else if (auto text = fs::ReadFile(dotgit, fs::Kind::kConfig)) {
        std::string line = FirstLine(*text);
        if (line.rfind("gitdir:", 0) == 0) {
          std::string target(Trim(std::string_view(line).substr(7)));
          gitdir = fs::Absolute(fs::Join(dir, target));
        }
      }
      if (!gitdir.empty()) {
        Checkout c{dir, gitdir, gitdir};
        if (auto common = fs::ReadFile(fs::Join(gitdir, "commondir"), fs::Kind::kConfig)) {
          std::string rel = FirstLine(*common);
          if (!rel.empty()) c.common_dir = fs::Absolute(fs::Join(gitdir, rel));
        }
        return c;
      }
    }
    if (dir == "/") return std::nullopt;
    dir = fs::Dirname(dir);
  }
}

namespace {

bool IsHash(std::string_view s) {
  if (s.size() != 40 && s.size() != 64) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

std::string HeadCommit(const Checkout& checkout) {
  auto head = fs::ReadFile(fs::Join(checkout.git_dir, "HEAD"), fs::Kind::kConfig);
  if (!head) return {};
  std::string line = FirstLine(*head);
  if (IsHash(line)) return line;  // detached
  if (line.rfind("ref: ", 0) != 0) return {};
  const std::string ref(Trim(std::string_view(line).substr(5)));
  if (ref.rfind("refs/", 0) != 0 || ref.find("..") != std::string::npos) return {};
  for (const std::string& dir : {checkout.git_dir, checkout.common_dir}) {
    if (auto loose = fs::ReadFile(fs::Join(dir, ref), fs::Kind::kConfig)) {
      std::string hash = FirstLine(*loose);
      if (IsHash(hash)) return hash;
    }
  }
  auto packed = fs::ReadFile(fs::Join(checkout.common_dir, "packed-refs"), fs::Kind::kState);
  if (!packed) return {};
  std::string_view all = *packed;
  for (std::string_view l : text::Lines(all)) {
    size_t space = l.find(' ');
    if (space == std::string_view::npos || l.substr(space + 1) != ref) continue;
    if (IsHash(l.substr(0, space))) return std::string(l.substr(0, space));
  }
  return {};
}

Result<std::optional<std::string>> OriginUrl(const Checkout& checkout) {
  const std::string path = fs::Join(checkout.common_dir, "config");
  auto text = fs::ReadFile(path, fs::Kind::kConfig);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
    Error e = text.error();
    e.what = "cannot read the checkout's git config to find its origin: " + e.what;
    return tl::unexpected(std::move(e));
  }
  auto url = GitConfigValue(*text, "remote", "origin", "url");
  if (url && url->empty()) return std::optional<std::string>();
  return url;
}

}  // namespace lore::store
