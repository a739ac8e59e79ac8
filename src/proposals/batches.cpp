#include "lore/proposals/batches.h"

#include <cinttypes>
#include <cstdio>
#include <map>

#include "lore/proposals/present.h"
#include "text/hash.h"
#include "text/trim.h"

namespace lore::proposals {
namespace {

// A chip of at most 12 characters (docs/proposals.md).
std::string Header(size_t batch, size_t of) {
  if (of <= 1) return "Memory";
  const std::string n = std::to_string(batch) + "/" + std::to_string(of);
  for (const char* head : {"Memory ", "Mem "}) {
    if (std::string(head).size() + n.size() <= 12) return head + n;
  }
  return n;
}

// Makes the labels of `b` unique (compared with white space squeezed).
void Disambiguate(AgentBatch* b) {
  for (int pass = 0; pass < 2; ++pass) {
    std::map<std::string, int> seen;
    for (const auto& o : b->options) ++seen[SqueezeSpaces(o.label)];
    int n = 0;
    for (auto& o : b->options) {
      if (seen[SqueezeSpaces(o.label)] < 2) continue;
      const std::string& id = b->ids[o.item];
      if (pass == 0 && !id.empty()) {
        o.label += " #" + id.substr(0, 8);
      } else if (pass == 1) {
        o.label += " (" + std::to_string(++n) + ")";
      }
    }
  }
}

}  // namespace

std::string SqueezeSpaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

std::string QueueFingerprint(const ReviewSet& set, const std::vector<size_t>& order) {
  uint64_t h = text::kFnvOffset;
  for (size_t i : order) {
    h = text::Fnv1a64(text::TrimEnd(set.scan.Text(set.scan.records[i].span), "\r\n"), h);
    h = text::Fnv1a64("\n", h);
  }
  return text::Hex(h);
}

std::vector<AgentBatch> AgentBatches(const ReviewSet& set, const std::vector<size_t>& order) {
  std::vector<AgentBatch> out;
  const auto layout = Batches(order.size());
  for (size_t k = 0; k < layout.size(); ++k) {
    AgentBatch b;
    b.batch = k + 1;
    b.of = layout.size();
    b.items = layout[k];
    b.question = Prompt(b.batch, b.of);
    b.header = Header(b.batch, b.of);
    for (size_t j = 0; j < b.items.size(); ++j) {
      const Entry& e = set.scan.records[order[b.items[j]]];
      b.ids.push_back(e.id);
      b.options.push_back({Label(e.record), Description(e.record), j, false});
    }
    Disambiguate(&b);
    if (b.options.size() == 1) {
      b.options.push_back(
          {std::string(kKeepNoneLabel), std::string(kKeepNoneDescription), 0, true});
    }
    out.push_back(std::move(b));
  }
  return out;
}

Json ToJson(const std::vector<AgentBatch>& batches, const std::string& fingerprint) {
  Json out = Json::array();
  for (const auto& b : batches) {
    Json options = Json::array();
    for (const auto& o : b.options) {
      Json opt = Json::object();
      opt["label"] = o.label;
      opt["description"] = o.description;
      options.push_back(std::move(opt));
    }
    Json q = Json::object();
    q["question"] = b.question;
    q["header"] = b.header;
    q["multiSelect"] = true;
    q["options"] = std::move(options);
    Json j = Json::object();
    j["batch"] = b.batch;
    j["of"] = b.of;
    j["ids"] = b.ids;
    j["queue"] = fingerprint;
    j["input"]["questions"] = Json::array({std::move(q)});
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace lore::proposals
