#include "recall/symbols.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "fs/atomic_file.h"
#include "redact/redact.h"
#include "store/git_config.h"

namespace lore::recall {
namespace {

constexpr size_t kMinSymbol = 4;
constexpr size_t kMaxSymbol = 80;
constexpr uint64_t kMaxFileBytes = 1 << 20;
constexpr uint64_t kMaxTotalBytes = 256ull << 20;
constexpr size_t kMaxSymbols = 4'000'000;
constexpr size_t kHeaderMax = 4096;
constexpr std::string_view kMagic = "lore-symbols 1 ";

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether a bare identifier looks like a name in code rather than a word:
// snake_case, camelCase or PascalCase with an inner capital.
bool LooksLikeCode(std::string_view id) {
  if (id.find('_') != std::string_view::npos) {
    return std::any_of(id.begin(), id.end(),
                       [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  }
  for (size_t i = 1; i < id.size(); ++i) {
    if (std::isupper(static_cast<unsigned char>(id[i])) &&
        std::islower(static_cast<unsigned char>(id[i - 1])))
      return true;
  }
  return false;
}

// The last identifier of a qualified name ("a::b.c->Name" -> "Name"), or
// empty when `s` is not one (spaces, slashes, other punctuation).
std::string_view LastPart(std::string_view s, bool* qualified) {
  *qualified = false;
  size_t start = 0;
  size_t i = 0;
  while (i < s.size()) {
    if (!IsIdentStart(s[i])) return {};
    size_t j = i;
    while (j < s.size() && IsIdent(s[j])) ++j;
    start = i;
    if (j == s.size()) return s.substr(start);
    if (s.compare(j, 2, "::") == 0 || s.compare(j, 2, "->") == 0) {
      i = j + 2;
    } else if (s[j] == '.') {
      i = j + 1;
    } else {
      return {};
    }
    *qualified = true;
  }
  return {};
}

void AddCited(std::string_view name, std::vector<std::string>* out) {
  if (name.size() < kMinSymbol || name.size() > kMaxSymbol) return;
  if (std::find(out->begin(), out->end(), name) == out->end()) out->emplace_back(name);
}

// One backticked span: `Name`, `Name()`, `Name(args)`, `A::B`, `a.b()`.
void CitedInSpan(std::string_view span, std::vector<std::string>* out) {
  bool call = false;
  if (size_t paren = span.find('('); paren != std::string_view::npos && span.back() == ')') {
    span = span.substr(0, paren);
    call = true;
  }
  bool qualified = false;
  std::string_view last = LastPart(span, &qualified);
  if (last.empty()) return;
  // A dotted name without a call is a file name or a domain ("config.toml").
  const bool dotted =
      span.find("::") == std::string_view::npos && span.find("->") == std::string_view::npos;
  if (qualified && dotted && !call) return;
  if (call || (qualified && !dotted) || LooksLikeCode(last)) AddCited(last, out);
}

}  // namespace

std::vector<std::string> CitedSymbols(std::string_view text, size_t max) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size() && out.size() < max) {
    if (text[i] == '`') {
      size_t end = text.find('`', i + 1);
      if (end == std::string_view::npos) break;
      std::string_view span = text.substr(i + 1, end - i - 1);
      if (!span.empty() && span.size() <= 200) CitedInSpan(span, &out);
      i = end + 1;
      continue;
    }
    if (!IsIdentStart(text[i]) || (i > 0 && (IsIdent(text[i - 1]) || text[i - 1] == '/'))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && IsIdent(text[j])) ++j;
    // Unquoted: `name()` with empty parentheses, or A::B.
    if (text.compare(j, 2, "()") == 0) {
      AddCited(text.substr(i, j - i), &out);
    } else if (text.compare(j, 2, "::") == 0 && j + 2 < text.size() && IsIdentStart(text[j + 2])) {
      size_t k = j + 2;
      while (k < text.size() && IsIdent(text[k])) ++k;
      AddCited(text.substr(j + 2, k - j - 2), &out);
      j = k;
    }
    i = j;
  }
  if (out.size() > max) out.resize(max);
  return out;
}

std::optional<CheckoutHead> HeadOf(const std::string& path) {
  struct stat st {};
  // A remote's URL is no checkout, even where a folder of its spelling
  // would be inside one.
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  auto checkout = store::FindCheckout(fs::Absolute(path));
  if (!checkout) return std::nullopt;
  std::string head = store::HeadCommit(*checkout);
  if (head.empty()) return std::nullopt;
  return CheckoutHead{checkout->top, std::move(head)};
}

namespace {

std::string Header(const CheckoutHead& at) {
  std::string h(kMagic);
  h += at.head + " " + at.top;
  std::replace(h.begin(), h.end(), '\n', ' ');
  return h + "\n";
}

// The symbol file's header line, read with one pread; empty when none.
std::string ReadHeader(const fs::Fd& fd, const std::string& path) {
  std::string buf(kHeaderMax, '\0');
  auto n = fs::ReadAt(fd.get(), buf.data(), buf.size(), 0, path);
  if (!n) return {};
  buf.resize(*n);
  size_t nl = buf.find('\n');
  if (nl == std::string::npos) return {};
  return buf.substr(0, nl + 1);
}

Result<fs::Fd> OpenSymbols(const store::Store& store) {
  return fs::OpenBeneath(store.dir(), kSymbolsFile, O_RDONLY);
}

}  // namespace

bool SymbolsNeedBuild(const store::Store& store, const CheckoutHead& at) {
  auto fd = OpenSymbols(store);
  if (!fd) return true;
  return ReadHeader(*fd, kSymbolsFile) != Header(at);
}

Result<SymbolStats> BuildSymbols(const store::Store& store, const CheckoutHead& at,
                                 const std::vector<std::string>& files) {
  SymbolStats stats;
  std::unordered_set<std::string> seen;
  uint64_t total = 0;
  std::string buf;
  for (const std::string& rel : files) {
    if (rel.empty() || rel.front() == '/' || rel.find("..") != std::string::npos) {
      ++stats.skipped;
      continue;
    }
    const std::string path = fs::Join(at.top, rel);
    auto fd = fs::Open(path, O_RDONLY);  // no symlink, no FIFO: those are skipped
    struct stat st {};
    if (!fd || ::fstat(fd->get(), &st) != 0 || static_cast<uint64_t>(st.st_size) > kMaxFileBytes ||
        total + static_cast<uint64_t>(st.st_size) > kMaxTotalBytes) {
      ++stats.skipped;
      continue;
    }
    buf.resize(static_cast<size_t>(st.st_size));
    auto n = fs::ReadAt(fd->get(), buf.data(), buf.size(), 0, path);
    if (!n) {
      ++stats.skipped;
      continue;
    }
    buf.resize(*n);
    total += *n;
    if (buf.find('\0') < 8000) {  // binary
      ++stats.skipped;
      continue;
    }
    ++stats.files;
    for (size_t i = 0; i < buf.size();) {
      if (!IsIdentStart(buf[i]) || (i > 0 && IsIdent(buf[i - 1]))) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < buf.size() && IsIdent(buf[j])) ++j;
      if (j - i >= kMinSymbol && j - i <= kMaxSymbol && seen.size() < kMaxSymbols)
        seen.emplace(buf, i, j - i);
      i = j;
    }
  }
  std::vector<std::string> sorted(seen.begin(), seen.end());
  std::sort(sorted.begin(), sorted.end());
  std::string out = Header(at);
  for (const std::string& s : sorted) {
    // A token in the code (`ghp_…`, `sk_live_…`) is spelled like a name: it
    // never reaches the store.
    if (redact::Clean(s) != s) continue;
    out += s + "\n";
    ++stats.symbols;
  }
  LORE_TRY(fs::MakeDirs(fs::Join(store.dir(), "recall")));
  LORE_TRY(fs::RefuseSymlink(fs::Join(store.dir(), kSymbolsFile), "the symbol file"));
  LORE_TRY(fs::WriteFileAtomic(fs::Join(store.dir(), kSymbolsFile), out, 0600,
                               fs::Durability::kVisibleOnly));
  return stats;
}

std::optional<SymbolSet> SymbolSet::Open(const store::Store& store, const CheckoutHead& at) {
  auto fd = OpenSymbols(store);
  if (!fd) return std::nullopt;
  std::string header = ReadHeader(*fd, kSymbolsFile);
  if (header.empty() || header != Header(at)) return std::nullopt;
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0) return std::nullopt;
  return SymbolSet(std::move(*fd), header.size(), static_cast<uint64_t>(st.st_size));
}

bool SymbolSet::LineAt(uint64_t p, std::string* line) const {
  // The first line starting at or after p: read from p - 1, and a line starts
  // at p when the byte before it is a newline. Lines are at most
  // kMaxSymbol + 1 bytes, so one read holds the rest of one and the next.
  char buf[2 * (kMaxSymbol + 2) + 1];
  const uint64_t from = p == begin_ ? p : p - 1;
  if (from >= end_) return false;
  auto n = fs::ReadAt(fd_.get(), buf, sizeof buf, from, kSymbolsFile);
  if (!n || *n == 0) return false;
  std::string_view view(buf, *n);
  size_t i = 0;
  if (p != begin_) {
    size_t nl = view.find('\n');
    if (nl == std::string_view::npos) return false;
    i = nl + 1;
  }
  size_t nl = view.find('\n', i);
  if (from + i >= end_ || nl == std::string_view::npos) return false;
  line->assign(view.substr(i, nl - i));
  return true;
}

bool SymbolSet::Contains(std::string_view name) const {
  // The smallest p whose line (LineAt) is >= name or missing: the lines are
  // sorted, so that is monotone in p.
  uint64_t lo = begin_, hi = end_;
  std::string line;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (!LineAt(mid, &line) || line >= name) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return LineAt(lo, &line) && line == name;
}

}  // namespace lore::recall
