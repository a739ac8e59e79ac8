// Verb `lore lint <repo> [--json]`: every record of the store, linted.
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/lint.h"
#include "lore/app/store.h"
#include "lore/json/value.h"

namespace lore::cli {
namespace {

struct LintArgs {
  std::string repo;
  bool json = false;
};

constexpr size_t kPrintChunk = size_t{1} << 20;

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

int RunLint(const LintArgs& a) {
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto linted = app::LintStore(*store);
  if (!linted) return ReportError(linted.error());
  const lint::Report& report = linted->report;
  if (a.json) {
    Json j;
    j["store"] = linted->store;
    j["records"] = linted->records;
    j["errors"] = report.Errors();
    j["warnings"] = report.Warnings();
    j["findings"] = report.FindingsJson();
    Print(j.dump());
  } else {
    // Printed a chunk at a time: a store where every record warns has as
    // many lines as records.
    std::string out;
    for (const auto& f : report.findings) {
      out += f.Format() + "\n";
      if (out.size() >= kPrintChunk) {
        Print(out, false);
        out.clear();
      }
    }
    out += "lint: " + Plural(report.Errors(), "error") + ", " +
           Plural(report.Warnings(), "warning") + " in " + Plural(linted->records, "record") + "\n";
    Print(out, false);
  }
  return report.HasErrors() ? kExitError : kExitOk;
}

}  // namespace

void RegisterLintCommands(Registry& r) {
  auto a = std::make_shared<LintArgs>();
  CLI::App* sub = r.Add("lint", "Check every memory and knowledge record of the store",
                        [a]() { return RunLint(*a); });
  sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  sub->add_flag("--json", a->json, "Print the findings as one JSON object");
  sub->footer("Exit status: 0 when there is no error (warnings are printed), 1 on errors.");
}

}  // namespace lore::cli
