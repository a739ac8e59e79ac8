// Unit tests: run a function at every test point (lore/testing/point.h)
// reached within one scope, then put back the hook the test build installed.
#pragma once

#include <functional>
#include <string_view>
#include <utility>

#include "lore/testing/point.h"

namespace lore::testing {

class OnTestPoints {
 public:
  explicit OnTestPoints(std::function<void(std::string_view)> fn)
      : previous_((Fn() = std::move(fn), SetHook(&Call))) {}
  ~OnTestPoints() {
    SetHook(previous_);
    Fn() = nullptr;
  }
  OnTestPoints(const OnTestPoints&) = delete;
  OnTestPoints& operator=(const OnTestPoints&) = delete;

 private:
  static std::function<void(std::string_view)>& Fn() {
    static std::function<void(std::string_view)> fn;
    return fn;
  }
  static Status Call(std::string_view point) {
    if (Fn()) Fn()(point);
    return Ok();
  }
  HookFn previous_;
};

}  // namespace lore::testing
