// lore distill: rewrite the store's okf/ bundle from its records.
#include <unistd.h>

#include <chrono>
#include <memory>

#include "cli/command.h"
#include "cli/exec_llm.h"
#include "cli/io.h"
#include "lore/app/distill.h"
#include "lore/app/store.h"
#include "lore/fs/fd.h"

namespace lore::cli {
namespace {

struct DistillArgs {
  std::string repo;
  bool llm = false;
};

// A progress bar on stderr, shown only on a terminal and only once the work
// has taken more than a second.
class ProgressBar {
 public:
  ProgressBar() : tty_(::isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {}
  ~ProgressBar() { Clear(); }
  // Erases the bar (once drawn) so that what follows starts on a clean line.
  void Clear() {
    if (drawn_) (void)fs::WriteAll(STDERR_FILENO, "\r\033[K", "<stderr>");
    drawn_ = false;
    tty_ = false;
  }
  void Update(std::string_view phase, int64_t done, int64_t total) {
    if (!tty_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(1)) return;
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done < total) return;
    last_ = now;
    drawn_ = true;
    constexpr int kWidth = 30;
    int pct = total > 0 ? static_cast<int>(done * 100 / total) : 0;
    int fill = pct * kWidth / 100;
    std::string line = "\rlore distill: " + std::string(phase) + " [" + std::string(fill, '#') +
                       std::string(kWidth - fill, ' ') + "] " + std::to_string(pct) + "%\033[K";
    (void)fs::WriteAll(STDERR_FILENO, line, "<stderr>");
  }

 private:
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

int RunDistill(const DistillArgs& a) {
  if (a.llm) return ExecLoreLlm({"distill", a.repo}, "run 'lore distill' without --llm");
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  distill::Options options;
  auto bar = std::make_shared<ProgressBar>();
  options.progress = [bar](std::string_view phase, int64_t done, int64_t total) {
    bar->Update(phase, done, total);
  };
  auto r = app::Distill(*store, options);
  bar->Clear();
  if (!r) return ReportError(r.error());
  for (const auto& w : r->warnings) ReportWarning(w);
  Print(r->text);
  return kExitOk;
}

}  // namespace

void RegisterDistillCommands(Registry& r) {
  auto args = std::make_shared<DistillArgs>();
  CLI::App* sub = r.Add("distill", "Rewrite the okf/ bundle from raw.jsonl, learnings and memory",
                        [args]() { return RunDistill(*args); });
  sub->add_option("repo", args->repo, "A git remote URL or the path of a checkout")->required();
  sub->add_flag("--llm", args->llm,
                "Have the LLM engine write index.md's digest (runs lore-llm; see docs/distill.md)");
}

}  // namespace lore::cli
