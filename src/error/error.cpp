#include "lore/error.h"

namespace lore {

std::string Error::Format() const {
  std::string out = what;
  if (!path.empty()) {
    out += ": ";
    out += path;
    if (line > 0) {
      out += ':';
      out += std::to_string(line);
    }
  }
  if (!repair.empty()) {
    out += "; ";
    out += repair;
  }
  return out;
}

}  // namespace lore
