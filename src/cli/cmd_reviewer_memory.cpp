// The four verbs of seed 003's reviewer-memory script, as lore offers them when
// it runs as that script (cli/reviewer_memory.h): ensure, append-review,
// append-slicing, pointer. Same library calls as cmd_capture.cpp, in the
// script's order (the store is opened and checked before standard input is
// read) and with its `ensure` output.
#include <memory>

#include "cli/capture_append.h"
#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/capture.h"
#include "lore/app/store.h"

namespace lore::cli {
namespace {

using Clock = std::chrono::system_clock;

void AddVerb(Registry& r, const std::string& name, const std::string& summary,
             std::function<int(const store::Store&)> body) {
  auto repo = std::make_shared<std::string>();
  CLI::App* sub = r.Add(name, summary, [repo, body]() {
    auto store = app::LocateStore(*repo);
    if (!store) return ReportError(store.error());
    if (auto s = store->Ensure(Clock::now()); !s) return ReportError(s.error());
    return body(*store);
  });
  sub->add_option("repo", *repo, "remote URL or checkout path")->required();
}

}  // namespace

void RegisterReviewerMemoryCommands(Registry& r) {
  AddVerb(r, "ensure", "Create the store if missing, check it, print its paths as JSON",
          [](const store::Store& store) {
            auto report = app::Ensure(store, capture::ReportStyle::kPython, Clock::now());
            if (!report) return ReportError(report.error());
            Print(*report);
            return kExitOk;
          });
  AddVerb(r, "append-review", "Append the review record on stdin to raw.jsonl",
          [](const store::Store& store) { return AppendFromStdin(store, capture::Kind::kReview); });
  AddVerb(
      r, "append-slicing", "Append the slicing record on stdin to raw.jsonl",
      [](const store::Store& store) { return AppendFromStdin(store, capture::Kind::kSlicing); });
  AddVerb(r, "pointer", "Print the absolute path of okf/index.md", [](const store::Store& store) {
    Print(store.index_path());
    return kExitOk;
  });
}

}  // namespace lore::cli
