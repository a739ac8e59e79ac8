#include "lore/app/capture.h"

namespace lore::app {

Result<capture::Appended> Capture(const store::Store& store, std::string_view input,
                                  capture::Kind kind, text::TimePoint now) {
  return capture::Append(store, input, kind, now);
}

Result<std::string> Ensure(const store::Store& store, capture::ReportStyle style,
                           text::TimePoint now) {
  LORE_TRY(store.Ensure(now));
  return capture::EnsureReport(store, style);
}

}  // namespace lore::app
