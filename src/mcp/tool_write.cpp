// The writing tools: propose_learning and capture_review.
#include <chrono>

#include "lore/app/capture.h"
#include "lore/app/propose.h"
#include "lore/json/field.h"
#include "mcp/lore_tools.h"

namespace lore::mcp {
namespace {

constexpr size_t kMaxRecordBytes = 64 * 1024;

std::string Number(const Json& v) {
  return v.dump();  // a JSON number's text is what `lore propose --confidence` accepts
}

// The default wave of a proposal made through MCP: $LORE_WAVE, else one
// wave per day, so that the per-wave quota bounds what an agent can queue.
std::string DefaultWave(const ToolState& s, text::TimePoint now) {
  if (!s.options.env_wave.empty()) return s.options.env_wave;
  return app::WaveOfDay("mcp", now).id;
}

// What the agent is told when the wave's quota refused its proposal: the
// limit, when it resets, and where a person changes it.
std::string QuotaMessage(const ToolState& s, const app::Proposed& r, bool day_wave,
                         text::TimePoint now) {
  std::string out = "not queued: the wave " + r.fields.wave_id + " already holds " +
                    std::to_string(r.quota) + " proposals, its quota (memory.proposals." +
                    "quota_per_wave). ";
  if (day_wave) {
    out += "Proposals made through MCP form one wave per UTC day, so the quota resets at " +
           app::WaveOfDay("mcp", now).ends_at + ". ";
  } else {
    out += "The quota counts per wave: it resets only for another wave. ";
  }
  return out + "A person can change the quota with quota_per_wave under [memory.proposals] in " +
         s.store.config_path() +
         "; tell them which learning waits, rather than proposing it again.";
}

}  // namespace

Result<Json> ProposeLearning(ToolState& s, const Json& args) {
  const auto now = std::chrono::system_clock::now();
  proposals::ProposeFlags flags;
  flags.type = json::StringOr(args, "type", "");
  flags.subject = json::StringOr(args, "subject", "");
  flags.insight = json::StringOr(args, "insight", "");
  flags.evidence = json::StringOr(args, "evidence", "");
  flags.confidence = Number(args["confidence"]);
  flags.wave = json::StringOr(args, "wave", DefaultWave(s, now));
  const bool day_wave = !args.contains("wave") && s.options.env_wave.empty();
  flags.agent = "mcp";
  if (args.contains("file_paths")) {
    for (const auto& p : args["file_paths"]) {
      if (p.is_string()) flags.file_paths.push_back(p.get<std::string>());
    }
  }
  using Status = app::Proposed::Status;
  LORE_ASSIGN(app::Proposed r, app::Propose(
                                   {flags, s.options.env_wave, false},
                                   [&]() -> Result<store::Store> { return s.store; }, now));
  Json out;
  switch (r.status) {
    case Status::kInvalid: {
      std::string all;
      for (const auto& e : r.errors) all += (all.empty() ? "" : "; ") + e;
      return Fail(ErrorCode::kInvalidInput, "invalid proposal: " + all, "", 0,
                  "fix the arguments and call again");
    }
    case Status::kDisabled:
      return Fail(ErrorCode::kUnavailable,
                  "proposals are disabled (memory.proposals.enabled = false)",
                  s.store.config_path(), 0, "a person can enable them in config.toml");
    case Status::kNoWave:
    case Status::kDryRun:  // neither happens: the wave has a default, and nothing is dry here
      return Fail(ErrorCode::kInternal, "the proposal was not queued", "", 0, "report this bug");
    case Status::kQueued:
      out["status"] = "queued";
      out["position"] = std::to_string(r.position) + "/" + std::to_string(r.quota);
      out["wave"] = r.fields.wave_id;
      out["id"] = r.id;
      break;
    case Status::kQuotaExceeded:
      out["status"] = "quota-exceeded";
      out["quota"] = r.quota;
      out["wave"] = r.fields.wave_id;
      out["message"] = QuotaMessage(s, r, day_wave, now);
      break;
    case Status::kAlreadyQueued:
      out["status"] = "already-queued";
      out["id"] = r.id;
      out["message"] = "already queued: the pending proposal " + r.id +
                       " has the same type, subject and insight; nothing was added";
      break;
    case Status::kBelowFloor:
      out["status"] = "rejected-low-confidence";
      out["floor"] = r.floor;
      out["provided"] = r.fields.confidence;
      break;
  }
  return out;
}

Result<Json> CaptureReview(ToolState& s, const Json& args) {
  std::string input = args["record"].dump(-1, ' ', false, Json::error_handler_t::strict);
  if (input.size() > kMaxRecordBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "review record of " + std::to_string(input.size()) +
                    " bytes is over the limit of " + std::to_string(kMaxRecordBytes),
                "", 0, "capture the finding and the lesson, not whole files");
  }
  LORE_ASSIGN(capture::Appended a, app::Capture(s.store, input, capture::Kind::kReview,
                                                std::chrono::system_clock::now()));
  return Json{{"status", "appended"}, {"line", a.line}, {"raw_path", s.store.raw_path()}};
}

}  // namespace lore::mcp
