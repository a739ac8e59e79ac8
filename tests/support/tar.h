// A plain (uncompressed) ustar archive built by hand, for hostile archive
// entries in tests. Header-only.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

namespace lore::testing {

class Tar {
 public:
  // Adds an entry of `type` ('0' file, '5' folder, '1' hard link, '2'
  // symlink, '3' device); `declared` overrides the size in the header.
  void Add(const std::string& name, char type, const std::string& data = {},
           const std::string& link = {}, std::optional<size_t> declared = std::nullopt) {
    std::string h(512, '\0');
    name.copy(h.data(), std::min<size_t>(name.size(), 100));
    Octal(&h, 100, 8, type == '5' ? 0700 : 0600);
    Octal(&h, 108, 8, 0);
    Octal(&h, 116, 8, 0);
    Octal(&h, 124, 12, declared ? *declared : type == '0' ? data.size() : 0);
    Octal(&h, 136, 12, 1700000000);
    h[156] = type;
    link.copy(h.data() + 157, std::min<size_t>(link.size(), 100));
    std::string("ustar").copy(h.data() + 257, 5);
    h[263] = '0';
    h[264] = '0';
    std::fill(h.begin() + 148, h.begin() + 156, ' ');
    unsigned sum = 0;
    for (unsigned char c : h) sum += c;
    snprintf(h.data() + 148, 8, "%06o", sum);
    h[155] = ' ';
    bytes_ += h;
    if (type == '0') {
      bytes_ += data;
      bytes_.append((512 - data.size() % 512) % 512, '\0');
    }
  }
  std::string Finish() const { return bytes_ + std::string(1024, '\0'); }

 private:
  static void Octal(std::string* h, size_t off, size_t width, size_t v) {
    snprintf(h->data() + off, width, "%0*zo", static_cast<int>(width - 1), v);
  }
  std::string bytes_;
};

}  // namespace lore::testing
