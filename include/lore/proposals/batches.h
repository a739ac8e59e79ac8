// The review rendered by an agent (docs/proposals.md): one
// AskUserQuestion input per batch of at most four pending proposals, and the
// fingerprint of the queue they were made from, so that answers given to an
// older queue are refused (docs/proposals.md, "Review inside the agent").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lore/json/value.h"
#include "lore/proposals/review.h"

namespace lore::proposals {

// The option added to a batch that holds a single proposal, since a question
// needs two to four options. Picking it (or nothing) declines the proposal.
inline constexpr std::string_view kKeepNoneLabel = "Keep none";
inline constexpr std::string_view kKeepNoneDescription =
    "decline the proposal above (archived as declined, as when nothing is ticked)";

struct AgentOption {
  std::string label;  // unique within its batch
  std::string description;
  size_t item = 0;      // index into the batch's `items`
  bool filler = false;  // kKeepNoneLabel
};

struct AgentBatch {
  size_t batch = 0;  // 1-based
  size_t of = 0;
  std::vector<size_t> items;  // indexes into the `order` the batches were made from
  std::vector<std::string> ids;
  std::string question;  // Prompt(batch, of)
  std::string header;    // "Memory 2/3" ("Mem 100/250"), "Memory" for one batch
  std::vector<AgentOption> options;
};

// A fingerprint of the proposals `order` (indexes into `set.scan.records`)
// presents, in that order: 16 hexadecimal digits over their exact lines.
std::string QueueFingerprint(const ReviewSet& set, const std::vector<size_t>& order);

// The batches for the proposals `order` names (indexes into
// `set.scan.records`). Labels equal within a batch get the first eight
// characters of their id (" #1a2b3c4d"), then their position (" (2)"), so
// that every label names one proposal.
std::vector<AgentBatch> AgentBatches(const ReviewSet& set, const std::vector<size_t>& order);

// [{"batch","of","ids","queue","input":{"questions":[{"question","header",
// "multiSelect":true,"options":[{"label","description"}]}]}}]; [] when no
// proposal is pending.
Json ToJson(const std::vector<AgentBatch>& batches, const std::string& fingerprint);

// `s` with runs of white space made one space, trimmed: how a picked label is
// compared with the labels offered.
std::string SqueezeSpaces(std::string_view s);

}  // namespace lore::proposals
