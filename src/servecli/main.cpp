// lore-serve: `lore serve`, the page (docs/serve.md). lore replaces itself
// with this program for that verb (src/cli/cmd_serve.cpp), so that the
// hot-path binary links no HTTP server. It speaks as lore: its errors begin
// with "lore: ". Every view and change is a use case of lore::app
// (include/lore/app/browse.h); this file is HTTP, the token and the guards.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstring>
#include <iostream>
#include <thread>

#include "cli/guard.h"
#include "cli/report.h"
#include "lore/app/report.h"
#include "lore/app/store.h"
#include "lore/version.h"
#include "servecli/server.h"

namespace {

namespace app = lore::app;
using lore::Error;
using lore::ErrorCode;

// Why `port` cannot be had on 127.0.0.1, or "" when it can: bound once here,
// so that a taken port is named as such (httplib only says it failed).
std::string PortProblem(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::string("cannot open a socket: ") + std::strerror(errno);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string problem;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    problem = errno == EADDRINUSE ? "is taken by another program" : std::strerror(errno);
  }
  close(fd);
  return problem;
}

int Run(int argc, char** argv) {
  CLI::App cli{"lore serve: browse, search and review a store's memory in the browser", "lore"};
  cli.set_version_flag("--version", std::string("lore-serve ") + lore::kVersionLine);
  cli.require_subcommand(1, 1);
  std::string repo = ".";
  int port = lore::serve::kDefaultPort;
  CLI::App* s = cli.add_subcommand(
      "serve", "Serve a page of the store on 127.0.0.1: browse, search, review, curate, watch");
  s->add_option("repo", repo, "A git remote URL or the path of a checkout (default: .)");
  s->add_option("--repo", repo, "The same, as an option");
  s->add_option("--port", port, "The port on 127.0.0.1 (0: any free port)")
      ->check(CLI::Range(0, 65535));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& err) {
    if (err.get_exit_code() == 0) return cli.exit(err);  // --help, --version
    std::cerr << "lore: " << err.what() << "\nRun 'lore help serve' for usage.\n";
    return app::kExitUsage;
  }

  auto opened = app::LocateStore(repo);
  if (!opened) return lore::cli::WriteError(opened.error());
  if (port != 0) {
    if (std::string problem = PortProblem(port); !problem.empty()) {
      return lore::cli::WriteError(
          Error{ErrorCode::kUnavailable, "127.0.0.1:" + std::to_string(port) + " " + problem, "", 0,
                "pass --port <N> for another port, or --port 0 for any free one"});
    }
  }

  // SIGINT and SIGTERM end the server from a thread of its own (stopping it
  // is not for a signal handler); children (a consolidation started from the
  // page) are reaped by the kernel.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGCHLD, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);

  lore::serve::Server server(std::move(*opened), repo);
  auto bound = server.Bind(port);
  if (!bound) return lore::cli::WriteError(bound.error());
  std::cout << "lore: serving " << server.repo() << " at " << server.Url() << std::endl;
  std::thread stopper([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.Stop();
  });
  stopper.detach();
  server.Listen();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore: ", lore::cli::kExitInternal, [&] { return Run(argc, argv); });
}
