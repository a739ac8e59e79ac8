#include "store/key.h"

#include "fs/temp_name.h"
#include "text/trim.h"

namespace lore::store {
namespace {

using text::Trim;

bool IsKeyChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

}  // namespace

std::string NormaliseRemote(std::string_view remote) {
  std::string_view s = Trim(remote);
  if (s.size() >= 4 && s.substr(s.size() - 4) == ".git") s.remove_suffix(4);
  // scheme://[user@]host/path
  if (size_t scheme = s.find("://"); scheme != std::string_view::npos && scheme > 0) {
    std::string_view rest = s.substr(scheme + 3);
    size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    std::string_view path =
        slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
      authority.remove_prefix(at + 1);
    }
    std::string out(authority);
    if (!path.empty()) {
      out += '/';
      out += path;
    }
    return out;
  }
  // user@host:path (scp-like); a colon before any slash, with a user part.
  size_t at = s.find('@');
  size_t colon = s.find(':');
  size_t slash = s.find('/');
  if (at != std::string_view::npos && colon != std::string_view::npos && at < colon &&
      (slash == std::string_view::npos || colon < slash)) {
    std::string out(s.substr(at + 1, colon - at - 1));
    out += '/';
    std::string_view path = s.substr(colon + 1);
    while (!path.empty() && path.front() == '/') path.remove_prefix(1);
    out += path;
    return out;
  }
  return std::string(s);
}

Result<std::string> KeyFromIdentity(std::string_view identity) {
  std::string key;
  key.reserve(identity.size());
  bool in_run = false;
  for (char c : identity) {
    if (IsKeyChar(c)) {
      key += c;
      in_run = false;
    } else if (!in_run) {
      key += '_';
      in_run = true;
    }
  }
  size_t b = key.find_first_not_of("._-");
  if (b == std::string::npos) {
    return Fail(ErrorCode::kInvalidInput, "repository gives an empty store key",
                std::string(identity), 0, "pass a git remote URL or the path of a checkout");
  }
  size_t e = key.find_last_not_of("._-");
  key = key.substr(b, e - b + 1);
  if (key.size() > kMaxKeyBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "store key is " + std::to_string(key.size()) + " bytes long, more than the " +
                    std::to_string(kMaxKeyBytes) + " a store's folder name may have",
                std::string(identity), 0,
                "name the repository by a shorter remote URL (lore keys a store by the remote "
                "without scheme, user and .git), or give that checkout a shorter origin with "
                "git remote set-url origin <url>");
  }
  return key;
}

std::string RecordedIdentity(std::string_view identity) {
  std::string out;
  out.reserve(identity.size());
  for (char c : identity) {
    if (!IsKeyChar(c) && !out.empty() && out.back() == c) continue;
    out += c;
  }
  auto trimmed = [](char c) { return !IsKeyChar(c) || c == '.' || c == '_' || c == '-'; };
  size_t b = 0, e = out.size();
  while (b < e && trimmed(out[b])) ++b;
  while (e > b && trimmed(out[e - 1])) --e;
  return out.substr(b, e - b);
}

}  // namespace lore::store
