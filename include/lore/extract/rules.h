// The rules engine of Phase 1 (no model): what a stretch of a session did,
// read off both sides of the conversation (docs/extract.md lists the rules,
// the bounds and where they fall short):
//   - episodes: a failure, the agent's diagnosis and what then worked, as
//     attempts with `cause`, `fix` and `files` (activity/episodes.h);
//   - outcomes: commits, pushes, pull requests, test and build runs
//     (activity/outcomes.h);
//   - decisions: stated choices, answers to the agent's options or question
//     ("2", "yes, force push"), approved plans and answered AskUserQuestion
//     calls, and the calls the person declined;
//   - requests: everything else the person asked for, short turns included;
//   - discussions: the person's questions and the agent's answers.
// Every item keeps its own lines and time stamp. What is kept is ranked, not
// capped per list: fixed failures first, then outcomes, decisions, failures
// left unfixed, requests and discussions, within kEntryBudget bytes.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "lore/activity/episodes.h"
#include "lore/activity/outcomes.h"
#include "lore/extract/engine.h"

namespace lore::extract {

// The bytes of text one staged entry may hold (far below staging's 1 MiB).
inline constexpr size_t kEntryBudget = 48 * 1024;

class RulesEngine final : public Engine {
 public:
  std::string_view name() const override { return "rules"; }
  Status Take(const Event& event) override;
  void Checkout(std::string_view cwd) override {
    if (checkout_.empty()) checkout_ = std::string(cwd);
  }
  Result<consolidate::StagedEntry> Finish() override;

  // Items left out by the budget (not staged; the session log keeps them).
  int64_t dropped() const { return dropped_; }

 private:
  struct Call {
    std::string id, name, detail, note;
    int64_t line = 0;
    std::string intent;  // what the agent said it was about to do
  };
  void Person(const Event& e);
  void Assistant(const Event& e);
  void OnResult(const Event& e);
  void CloseDiscussion();
  template <class T>
  void Push(std::vector<T>& list, T item);

  consolidate::StagedEntry entry_;
  std::string checkout_;  // the session's folder (Checkout), "" when not given
  // A call the person declined, whose reason their next words may give, by its index.
  std::optional<size_t> declined_;
  activity::EpisodeReader episodes_;
  activity::OutcomeReader outcomes_;
  std::deque<Call> calls_;                             // tool calls awaiting a result (bounded)
  std::optional<consolidate::StagedDiscussion> open_;  // a question awaiting answers
  std::string last_assistant_;  // the agent's last words (bounded), for options and questions
  int64_t last_assistant_line_ = 0;
  // The decision the person's last short reply made, whose reason the agent's next words may
  // give ("Going with 2, largest remainder: the shares always add up"), by its index.
  std::optional<size_t> awaiting_reason_;
  std::string first_at_, last_at_;
  int64_t dropped_ = 0;
};

}  // namespace lore::extract
