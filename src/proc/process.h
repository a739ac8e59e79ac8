// Starting other programs: the only code that forks or execs. It is linked
// into the executables (lore, lore-test, lore-llm, lore-team), never into the
// library, which decides what to run and leaves the running to its caller.
#pragma once

#include <sys/types.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lore/error.h"

namespace lore::proc {

// The absolute path of the running executable (/proc/self/exe).
Result<std::string> SelfExe();

// The path of `program` in the running executable's folder ("" when
// /proc/self/exe cannot be read).
std::string Beside(std::string_view program);

// Starts `argv` (argv[0] a path) in a session of its own, its standard
// streams on /dev/null and no other descriptor of ours open, and returns
// without waiting, not even for its exec (one fork; no double fork). A
// program that is not executable is an Error; an exec that fails later
// anyway ends the child with status 127. The caller is expected to exit
// soon: init then adopts the child, and a child that ends first stays a
// zombie until then. `what` names it in the error.
Status StartDetached(const std::vector<std::string>& argv, std::string_view what);

enum class Streams {
  kInherit,         // the child writes where we write
  kStdoutToStderr,  // its standard output goes to our standard error (ours stays clean)
};

// Runs `argv` and waits: its exit status (128 + N when killed by signal N).
Result<int> Run(const std::vector<std::string>& argv, Streams streams = Streams::kInherit);

// Runs `argv` (a name found on PATH, or a path) in `cwd` with its standard
// input empty and its errors discarded, and returns what it wrote to its
// standard output: at most `limit` bytes (the rest is read and dropped), and
// within `timeout_ms` (then it is killed, and that is an error). A non-zero
// exit is an error too. For small questions to other tools (`git log`).
Result<std::string> Output(const std::vector<std::string>& argv, const std::string& cwd,
                           size_t limit, int timeout_ms);

// Replaces this process with `argv`. Returns only when that failed.
Error Exec(const std::vector<std::string>& argv);

// A child whose standard streams are pipes to us, in a process group of its
// own (so that Kill reaches whatever it starts), for a program that talks to
// lore through them (the claude-code model back end). The descriptors are
// non-blocking and close-on-exec; the destructor kills and reaps a child
// still running.
class Child {
 public:
  struct Options {
    std::vector<std::string> argv;  // argv[0] a path or a name found on PATH
    std::vector<std::pair<std::string, std::string>> set_env;  // over our environment
    std::string cwd;                                           // "": ours
  };
  static Result<Child> Start(const Options& options);

  Child(Child&& o) noexcept;
  Child& operator=(Child&&) = delete;
  ~Child();

  int in() const { return in_; }    // its standard input (ours to write)
  int out() const { return out_; }  // its standard output
  int err() const { return err_; }  // its standard error
  void CloseIn();
  // SIGKILL to its process group.
  void Kill();
  // Its exit status without waiting: nullopt while it runs (128 + N when
  // killed by signal N).
  std::optional<int> Poll();
  // Waits for it: its exit status.
  int Wait();

 private:
  Child() = default;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::optional<int> status_;
};

}  // namespace lore::proc
