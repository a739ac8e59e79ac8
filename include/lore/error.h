// lore::Error and Result<T>: the one error type of the library.
//
// Every fallible library function returns Result<T> (tl::expected<T, Error>).
// No exception crosses the library boundary. An Error knows what went wrong,
// the file (and line) it concerns, and the repair a person should make, and
// renders as one line:  "<what>: <path>[:<line>]; <repair>".
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace lore {

enum class ErrorCode {
  kInvalidInput,  // bad data supplied by the caller (stdin, flags, a record)
  kCorrupt,       // a file on disk does not parse or violates its format
  kNotFound,      // a required file or record is missing
  kExists,        // creating something that already exists
  kPermission,    // EACCES / EPERM
  kSymlink,       // a symlink where lore refuses one
  kIo,            // any other operating-system failure
  kBusy,          // a lock could not be had in time
  kUnavailable,   // a feature is switched off or a service cannot be reached
  kInternal,      // a bug in lore
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string what;    // short description: "malformed JSON line"
  std::string path;    // the file concerned; may be empty
  int64_t line = 0;    // 1-based line within path; 0 when none
  std::string repair;  // what a person should do; may be empty

  // "<what>: <path>[:<line>]; <repair>" (parts that are empty are left out).
  std::string Format() const;
};

template <class T>
using Result = tl::expected<T, Error>;
using Status = Result<void>;

inline tl::unexpected<Error> Fail(ErrorCode code, std::string what, std::string path = {},
                                  int64_t line = 0, std::string repair = {}) {
  return tl::unexpected<Error>(
      Error{code, std::move(what), std::move(path), line, std::move(repair)});
}

inline tl::unexpected<Error> Fail(Error e) { return tl::unexpected<Error>(std::move(e)); }

inline Status Ok() { return {}; }

}  // namespace lore

// Propagates an error from an expression returning Result<...>.
#define LORE_TRY(expr)                                         \
  do {                                                         \
    if (auto lore_try_r_ = (expr); !lore_try_r_) {             \
      return ::tl::unexpected(std::move(lore_try_r_).error()); \
    }                                                          \
  } while (0)

#define LORE_CONCAT_INNER_(a, b) a##b
#define LORE_CONCAT_(a, b) LORE_CONCAT_INNER_(a, b)
// LORE_ASSIGN(auto x, expr): declares x from the value of expr or returns its error.
#define LORE_ASSIGN(decl, expr) \
  LORE_ASSIGN_IMPL_(LORE_CONCAT_(lore_assign_r_, __LINE__), decl, expr)
#define LORE_ASSIGN_IMPL_(tmp, decl, expr)                   \
  auto tmp = (expr);                                         \
  if (!tmp) return ::tl::unexpected(std::move(tmp).error()); \
  decl = std::move(*tmp)
