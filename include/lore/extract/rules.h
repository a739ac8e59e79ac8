// The rules engine of Phase 1 (no model): requests, attempts, decisions and
// discussions read off the transcript's structure and a few explicit
// phrasings, each item a verbatim excerpt (docs/extract.md lists the rules,
// the bounds and where they fall short).
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "lore/extract/engine.h"

namespace lore::extract {

class RulesEngine final : public Engine {
 public:
  std::string_view name() const override { return "rules"; }
  Status Take(const Event& event) override;
  Result<consolidate::StagedEntry> Finish() override;

  // Items found beyond the bounds (not staged).
  int64_t dropped() const { return dropped_; }

 private:
  struct Call {
    std::string id, name, detail;
  };
  void Person(const std::string& text);
  void Assistant(const std::string& text);
  void OnResult(const Event& e);
  void CloseDiscussion();
  template <class T>
  void Push(std::vector<T>& list, T item);

  consolidate::StagedEntry entry_;
  std::deque<Call> calls_;                             // tool calls awaiting their result (bounded)
  std::optional<consolidate::StagedDiscussion> open_;  // a question awaiting answers
  std::string last_assistant_;  // the agent's last words (bounded), for named options
  int64_t dropped_ = 0;
};

}  // namespace lore::extract
