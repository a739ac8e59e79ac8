#include "lore/proposals/answers.h"
#include "text/trim.h"

#include <algorithm>
#include <optional>
#include <set>

#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/proposals/batches.h"
#include "lore/proposals/collect.h"
#include "lore/proposals/present.h"
#include "lore/proposals/record.h"
#include "lore/sys/uuid.h"

namespace lore::proposals {
namespace {

constexpr size_t kMinIdPrefix = 8;

// One answer as written, before it is matched with a batch.
struct RawAnswer {
  std::optional<int64_t> batch;  // the structured form
  std::string question;          // the map form
  std::vector<std::string> picks;
  std::optional<std::string> joined;  // "label, label" as Claude Code joins them
};

struct Raw {
  std::string queue;
  std::vector<RawAnswer> answers;
};

std::string Shown(std::string_view s) {
  std::string out = json::DumpJs(Json(std::string(s)));
  return out.size() > 100 ? out.substr(0, 100) + "...\"" : out;
}

// Picks from a value: a string (joined labels) or an array of strings.
bool ReadPicks(const Json& v, RawAnswer* a) {
  if (v.is_string()) {
    a->joined = v.get<std::string>();
    return true;
  }
  if (!v.is_array()) return false;
  for (const auto& e : v) {
    if (!e.is_string()) return false;
    a->picks.push_back(e.get<std::string>());
  }
  return true;
}

Result<Raw> Parse(std::string_view text, const AnswerOptions& o) {
  const std::string repair =
      "write {\"queue\": \"<queue from --batches>\", \"batches\": [{\"batch\": 1, \"picked\": "
      "[labels]}]} or Claude Code's answers map with \"queue\" added; nothing was changed";
  json::Limits limits;
  limits.max_bytes = kMaxAnswersBytes;
  limits.max_depth = 16;
  LORE_ASSIGN(Json j, json::ParseOrdered(text, limits, {o.source, 1, repair}));
  auto bad = [&](const std::string& what) {
    return Fail(ErrorCode::kInvalidInput, what, o.source, 0, repair);
  };
  if (!j.is_object()) return bad("the answers are not a JSON object");
  Raw raw;
  auto queue = json::String(j, "queue");
  if (!queue) {
    return bad("the answers carry no \"queue\" (copy it from 'lore review --batches --json')");
  }
  raw.queue = *queue;
  if (const Json* batches = json::Find(j, "batches")) {
    if (!batches->is_array()) return bad("the answers' \"batches\" is not an array");
    for (const auto& b : *batches) {
      RawAnswer a;
      const Json* n = json::Find(b, "batch");
      a.batch = n ? json::AsInt(*n, 1, INT64_MAX) : std::nullopt;
      if (!a.batch) return bad("every entry of \"batches\" needs \"batch\": its number (1, 2, …)");
      const Json* picked = json::Find(b, "picked");
      if (!picked || !ReadPicks(*picked, &a)) {
        return bad("batch " + std::to_string(*a.batch) +
                   ": \"picked\" must be an array of labels or ids (or one joined string)");
      }
      raw.answers.push_back(std::move(a));
    }
    return raw;
  }
  const Json* map = json::Find(j, "answers");
  if (map && !map->is_object()) return bad("the answers' \"answers\" is not an object");
  for (const auto& [key, value] : (map ? *map : j).items()) {
    if (!map && key == "queue") continue;
    RawAnswer a;
    a.question = key;
    if (!ReadPicks(value, &a)) {
      return bad("the answer to " + Shown(key) + " must be the picked labels (a string or array)");
    }
    raw.answers.push_back(std::move(a));
  }
  return raw;
}

// Matching picks against the options of one batch.
class BatchMatcher {
 public:
  BatchMatcher(const AgentBatch& b, const ReviewSet& set, const std::vector<size_t>& order,
               std::vector<std::string>* errors)
      : b_(b), set_(set), order_(order), errors_(errors) {
    for (const auto& o : b.options) labels_.push_back(SqueezeSpaces(o.label));
  }

  void Pick(std::string_view raw) {
    const std::string p = SqueezeSpaces(raw);
    for (size_t k = 0; k < labels_.size(); ++k) {
      if (labels_[k] == p) return Choose(k);
    }
    if (p.size() >= kMinIdPrefix) {
      std::vector<size_t> hits;
      for (size_t k = 0; k < b_.options.size(); ++k) {
        const auto& o = b_.options[k];
        if (!o.filler && b_.ids[o.item].rfind(p, 0) == 0) hits.push_back(k);
      }
      if (hits.size() == 1) return Choose(hits[0]);
    }
    errors_->push_back(Unmatched(p));
  }

  // "label, label": the longest option at each place, followed by a comma
  // or the end, so that labels holding ", " are read whole.
  void PickJoined(std::string_view raw) {
    const std::string s = SqueezeSpaces(raw);
    size_t at = 0;
    while (at < s.size()) {
      while (at < s.size() && (s[at] == ' ' || s[at] == ',')) ++at;
      if (at >= s.size()) break;
      size_t best = std::string::npos, best_len = 0;
      for (size_t k = 0; k < labels_.size(); ++k) {
        const std::string& l = labels_[k];
        if (l.size() > best_len && s.compare(at, l.size(), l) == 0 &&
            (at + l.size() == s.size() || s[at + l.size()] == ',')) {
          best = k;
          best_len = l.size();
        }
      }
      if (best != std::string::npos) {
        Choose(best);
        at += best_len;
        continue;
      }
      size_t end = s.find(',', at);
      if (end == std::string::npos) end = s.size();
      Pick(s.substr(at, end - at));
      at = end;
    }
  }

  // The decisions of the batch's proposals (indexes into `order`).
  void Decide(text::TimePoint now, std::vector<Decision>* d) {
    bool filler = false, any = false;
    for (size_t k : chosen_) {
      filler = filler || b_.options[k].filler;
      any = any || !b_.options[k].filler;
    }
    if (filler && any) {
      errors_->push_back("batch " + std::to_string(b_.batch) + ": \"" +
                         std::string(kKeepNoneLabel) +
                         "\" was picked together with the proposal it declines");
    }
    for (size_t item : b_.items) (*d)[item] = Decision{Verdict::kDecline, "user-declined", now};
    for (size_t k : chosen_) {
      if (!b_.options[k].filler) (*d)[b_.items[b_.options[k].item]].verdict = Verdict::kApprove;
    }
  }

 private:
  void Choose(size_t k) { chosen_.insert(k); }

  std::string Unmatched(const std::string& p) const {
    const std::string head = "batch " + std::to_string(b_.batch) + ": " + Shown(p);
    for (size_t i = 0; i < set_.scan.records.size(); ++i) {
      if (set_.scan.records[i].id != p) continue;
      auto it = std::find(order_.begin(), order_.end(), i);
      if (it == order_.end()) return head + " is a proposal that is no longer pending";
      return head + " is a proposal of batch " +
             std::to_string(static_cast<size_t>(it - order_.begin()) / kBatchSize + 1) +
             ", not of this one";
    }
    if (p.size() == 36 && sys::IsUuidV4(p)) return head + ": no proposal with this id is queued";
    return head + " matches no option of this batch";
  }

  const AgentBatch& b_;
  const ReviewSet& set_;
  const std::vector<size_t>& order_;
  std::vector<std::string>* errors_;
  std::vector<std::string> labels_;
  std::set<size_t> chosen_;
};

}  // namespace

Result<Answered> ReadAnswers(std::string_view text, const ReviewSet& set, const AnswerOptions& o) {
  LORE_ASSIGN(Raw raw, Parse(text, o));
  const std::string repair =
      "nothing was changed; run 'lore review <repo> --batches --json' again and answer every "
      "batch";
  Answered out;
  out.presented = set.pending;
  if (QueueFingerprint(set, out.presented) != raw.queue) {
    // An interrupted application of these answers settled some of them.
    std::vector<size_t> all = FifoOrder(set.scan);
    if (QueueFingerprint(set, all) != raw.queue) {
      return Fail(ErrorCode::kInvalidInput,
                  "the queue changed since the batches were made (the answers are for queue " +
                      Shown(raw.queue) + ", it is now " + QueueFingerprint(set, set.pending) +
                      " with " + std::to_string(set.pending.size()) + " pending)",
                  o.source, 0, repair);
    }
    out.presented = std::move(all);
  }
  const auto batches = AgentBatches(set, out.presented);
  std::vector<std::string> errors;
  std::vector<int> answered(batches.size(), 0);
  out.decisions.assign(out.presented.size(), Decision{Verdict::kUndecided, "user-declined", o.now});
  for (const auto& a : raw.answers) {
    size_t k = batches.size();
    if (a.batch) {
      if (*a.batch <= static_cast<int64_t>(batches.size())) k = static_cast<size_t>(*a.batch - 1);
    } else {
      const std::string q = SqueezeSpaces(a.question);
      for (size_t i = 0; i < batches.size(); ++i) {
        if (SqueezeSpaces(batches[i].question) == q) k = i;
      }
    }
    if (k == batches.size()) {
      errors.push_back(
          (a.batch ? "batch " + std::to_string(*a.batch) : "the question " + Shown(a.question)) +
          " is none of the " + std::to_string(batches.size()) + " batches");
      continue;
    }
    if (answered[k]++) {
      errors.push_back("batch " + std::to_string(k + 1) + " is answered twice");
      continue;
    }
    BatchMatcher m(batches[k], set, out.presented, &errors);
    for (const auto& p : a.picks) m.Pick(p);
    if (a.joined) m.PickJoined(*a.joined);
    m.Decide(o.now, &out.decisions);
  }
  if (!o.allow_partial) {
    for (size_t k = 0; k < batches.size(); ++k) {
      if (!answered[k]) {
        errors.push_back("batch " + std::to_string(k + 1) + " of " +
                         std::to_string(batches.size()) +
                         " is not answered (pass --partial to leave its proposals queued)");
      }
    }
  }
  if (!errors.empty())
    return Fail(ErrorCode::kInvalidInput, text::Joined(errors), o.source, 0, repair);
  return out;
}

}  // namespace lore::proposals
