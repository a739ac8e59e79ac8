#include "fs/temp_name.h"

#include <unistd.h>

#include <cstdio>
#include <vector>

#include "lore/fs/fd.h"
#include "lore/sys/random.h"

namespace lore::fs {
namespace {

bool AllDigits(std::string_view s, bool hex) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || (hex && c >= 'a' && c <= 'f');
    if (!ok) return false;
  }
  return true;
}

std::optional<TempKind> KindFromName(std::string_view word) {
  if (word == "tmp") return TempKind::kFile;
  if (word == "new") return TempKind::kNew;
  if (word == "old") return TempKind::kOld;
  if (word == "replaced") return TempKind::kReplaced;
  return std::nullopt;
}

std::vector<std::string_view> SplitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  for (;;) {
    size_t dot = s.find('.');
    parts.push_back(s.substr(0, dot));
    if (dot == std::string_view::npos) return parts;
    s.remove_prefix(dot + 1);
  }
}

std::optional<pid_t> ParsePid(std::string_view s) {
  if (!AllDigits(s, false) || s.size() > 10) return std::nullopt;
  long long pid = std::stoll(std::string(s));
  if (pid <= 0 || pid > 0x7fffffff) return std::nullopt;
  return static_cast<pid_t>(pid);
}

}  // namespace

std::string_view TempKindName(TempKind kind) {
  switch (kind) {
    case TempKind::kFile:
      return "tmp";
    case TempKind::kNew:
      return "new";
    case TempKind::kOld:
      return "old";
    case TempKind::kReplaced:
      return "replaced";
  }
  return "tmp";
}

std::string TempPath(std::string_view target, TempKind kind) {
  std::string base = Basename(target);
  char tail[32];
  std::snprintf(tail, sizeof tail, ".%d.%08x", static_cast<int>(::getpid()), sys::Random32());
  std::string name = base.empty() || base.front() != '.' ? "." : "";
  name += base;
  name += '.';
  name += TempKindName(kind);
  name += tail;
  return Join(Dirname(target), name);
}

std::optional<TempName> ParseTempName(std::string_view name) {
  std::vector<std::string_view> parts = SplitDots(name);
  const size_t n = parts.size();
  size_t kind_at = 0;
  if (n >= 4 && AllDigits(parts[n - 1], true) && ParsePid(parts[n - 2]) &&
      KindFromName(parts[n - 3])) {
    kind_at = n - 3;  // <base>.<what>.<pid>.<random>
  } else if (n >= 3 && ParsePid(parts[n - 1]) && KindFromName(parts[n - 2])) {
    kind_at = n - 2;  // <base>.<what>.<pid>, an older form
  } else {
    return std::nullopt;
  }
  size_t base_len = 0;
  for (size_t i = 0; i < kind_at; ++i) base_len += parts[i].size() + (i ? 1 : 0);
  std::string_view base = name.substr(0, base_len);
  if (!base.empty() && base.front() == '.') base.remove_prefix(1);
  if (base.empty()) return std::nullopt;
  return TempName{std::string(base), *KindFromName(parts[kind_at]), *ParsePid(parts[kind_at + 1])};
}

}  // namespace lore::fs
