// What a test's child process execs, made before fork(2): the tests fork
// from several threads at once, and a child of a threaded process may only
// make async-signal-safe calls until it execs (a setenv or a malloc there can
// wait forever on a lock another thread held at the fork). Header-only.
#pragma once

#include <unistd.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace lore::testing {

class ExecImage {
 public:
  // `argv`, and this process's environment with `env`'s changes (a value
  // sets, nullopt unsets).
  ExecImage(const std::vector<std::string>& argv,
            const std::map<std::string, std::optional<std::string>>& env)
      : args_(argv) {
    for (char** e = environ; e && *e; ++e) {
      std::string entry(*e);
      std::string name = entry.substr(0, entry.find('='));
      if (!env.count(name)) vars_.push_back(std::move(entry));
    }
    for (const auto& [k, v] : env) {
      if (v) vars_.push_back(k + "=" + *v);
    }
    for (auto& a : args_) argv_.push_back(a.data());
    argv_.push_back(nullptr);
    for (auto& v : vars_) envp_.push_back(v.data());
    envp_.push_back(nullptr);
  }
  ExecImage(const ExecImage&) = delete;
  ExecImage& operator=(const ExecImage&) = delete;

  // In the child: execve, and _exit(127) when it fails.
  [[noreturn]] void Exec() const {
    ::execve(argv_[0], argv_.data(), envp_.data());
    ::_exit(127);
  }

 private:
  std::vector<std::string> args_, vars_;
  std::vector<char*> argv_, envp_;
};

}  // namespace lore::testing
