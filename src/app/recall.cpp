#include "lore/app/recall.h"

#include <algorithm>

#include "lore/fs/fd.h"
#include "lore/hook/session.h"
#include "lore/index/index.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/learnings/update.h"
#include "lore/store/layout.h"
#include "recall/recall.h"
#include "recall/symbols.h"
#include "recall/usage.h"

namespace lore::app {
namespace {

// Prints the context and counts what it shows; a usage log that cannot be
// written costs the count, never the context (the error is the caller's
// warning after the answer is out).
HookAnswer Answer(const store::Store& store, std::string_view event, const recall::Recalled& r,
                  std::string_view session, text::TimePoint now) {
  HookAnswer a;
  a.reindex = r.no_index;
  if (r.context.empty()) return a;
  (void)recall::RecordUse(store, r.shown, session, now);
  a.json = hook::ContextJson(event, r.context);
  return a;
}

bool IsFileTool(std::string_view tool) {
  return tool == "Read" || tool == "Edit" || tool == "MultiEdit" || tool == "Write" ||
         tool == "NotebookEdit";
}

}  // namespace

Result<HookAnswer> PromptRecall(const store::Store& store, const hook::Payload& payload,
                                const std::string& repo, text::TimePoint now) {
  if (payload.prompt.empty() || !fs::Exists(store.dir())) return HookAnswer{};
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  LORE_ASSIGN(recall::Settings settings, recall::LoadSettings(store));
  LORE_ASSIGN(recall::Recalled r,
              recall::ForPrompt(store, settings, payload.prompt, {repo, payload.session_id, now}));
  return Answer(store, "UserPromptSubmit", r, payload.session_id, now);
}

Result<HookAnswer> FileRecall(const store::Store& store, const hook::Payload& payload,
                              const std::string& repo, text::TimePoint now) {
  if (!IsFileTool(payload.tool_name) || payload.file_path.empty() || !fs::Exists(store.dir()))
    return HookAnswer{};
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  LORE_ASSIGN(recall::Settings settings, recall::LoadSettings(store));
  LORE_ASSIGN(recall::Recalled r,
              recall::ForFile(store, settings, payload.file_path, {repo, payload.session_id, now}));
  return Answer(store, "PostToolUse", r, payload.session_id, now);
}

::lore::Status RefreshIndex(const store::Store& store) {
  if (fs::Exists(fs::Join(store.dir(), index::kIndexFile))) {
    LORE_ASSIGN(index::Index idx, index::Index::Open(store.dir()));
    LORE_TRY(idx.Update().map([](auto) {}));
  }
  return recall::WriteUsageFold(store);  // the hooks read the fold and the log's tail only
}

std::optional<CheckoutAt> CheckoutAtPath(const std::string& path) {
  auto at = recall::HeadOf(path);
  if (!at) return std::nullopt;
  return CheckoutAt{std::move(at->top), std::move(at->head)};
}

bool SymbolsNeedBuild(const store::Store& store, const CheckoutAt& at) {
  if (!fs::Exists(store.dir())) return false;  // hooks create no store
  return recall::SymbolsNeedBuild(store, {at.top, at.head});
}

Result<IndexedSymbols> IndexSymbols(const store::Store& store, const CheckoutAt& at,
                                    const std::vector<std::string>& files) {
  if (!fs::Exists(store.dir())) {
    return Fail(ErrorCode::kNotFound, "no store for this repository", store.dir(), 0,
                "check the repository argument, or capture something first");
  }
  LORE_ASSIGN(recall::SymbolStats stats, recall::BuildSymbols(store, {at.top, at.head}, files));
  return IndexedSymbols{stats.files, stats.skipped, stats.symbols};
}

void EndRecallSession(const store::Store& store, std::string_view session) {
  if (fs::Exists(store.dir())) recall::ForgetSession(store, session);
}

Result<ItemText> OpenItem(const store::Store& store, std::string_view id, std::string_view via,
                          text::TimePoint now) {
  if (!fs::Exists(store.dir())) {
    return Fail(ErrorCode::kNotFound, "no store for this repository", store.dir(), 0,
                "check the repository argument");
  }
  LORE_ASSIGN(recall::OpenedItem item, recall::Open(store, id));
  (void)recall::RecordUse(store, {{recall::Use::kOpened, item.id, std::string(via)}}, "", now);
  // A learning the agent opens is confirmed in use (seed 000's lifecycle),
  // at most once a day: its confidence rises and its expiry is renewed.
  if (item.file == store::kLearningsFile) {
    if (auto line = json::Parse(item.text, json::ForeignLogLine()); line && line->is_object()) {
      const std::string learning = json::StringOr(*line, "id", "");
      if (!learning.empty()) {
        (void)learnings::ConfirmInUse(learnings::Files::InStore(store.dir()), learning,
                                      "use:" + text::UtcDate(now), now);
      }
    }
  }
  return ItemText{item.id, item.file, item.line, std::move(item.text)};
}

void CountUse(const store::Store& store, const std::vector<std::string>& ids, bool opened,
              std::string_view via, text::TimePoint now) {
  if (ids.empty() || !fs::Exists(store.dir())) return;
  std::vector<recall::UseEvent> events;
  for (const auto& id : ids)
    events.push_back({opened ? recall::Use::kOpened : recall::Use::kShown, id, std::string(via)});
  (void)recall::RecordUse(store, events, "", now);
}

::lore::Status PinItem(const store::Store& store, std::string_view id, bool pin,
                       text::TimePoint now) {
  if (!fs::Exists(store.dir())) {
    return Fail(ErrorCode::kNotFound, "no store for this repository", store.dir(), 0,
                "check the repository argument");
  }
  LORE_TRY(recall::Open(store, id).map([](auto) {}));  // the item must exist
  return recall::RecordUse(
      store, {{pin ? recall::Use::kPin : recall::Use::kUnpin, std::string(id), "cli"}}, "", now);
}

Result<UsageStats> Usage(const store::Store& store) {
  UsageStats out;
  if (!fs::Exists(store.dir())) return out;
  LORE_ASSIGN(recall::Settings settings, recall::LoadSettings(store));
  out.unused_days = settings.unused_days;
  LORE_ASSIGN(recall::Usage u, recall::ReadUsage(store));
  out.lines = u.lines;
  out.bad_lines = u.bad_lines;
  for (const auto& [id, iu] : u.items) {
    ItemStats s{id, iu.shown, iu.opened, "", iu.pinned};
    if (iu.last_used > 0) {
      s.last_used = text::UtcSeconds(text::TimePoint(std::chrono::seconds(iu.last_used)));
    }
    out.shown += iu.shown;
    out.opened += iu.opened;
    out.pinned += iu.pinned ? 1 : 0;
    out.items.push_back(std::move(s));
  }
  std::stable_sort(out.items.begin(), out.items.end(), [](const ItemStats& a, const ItemStats& b) {
    return a.shown + a.opened > b.shown + b.opened;
  });
  return out;
}

Json UsageJson(const UsageStats& stats, int top) {
  Json j = Json::object();
  j["items"] = static_cast<int64_t>(stats.items.size());
  j["shown"] = stats.shown;
  j["opened"] = stats.opened;
  j["pinned"] = stats.pinned;
  j["unused_days"] = stats.unused_days;
  Json rows = Json::array();
  for (const ItemStats& s : stats.items) {
    if (top >= 0 && static_cast<int>(rows.size()) >= top) break;
    rows.push_back({{"id", s.id},
                    {"shown", s.shown},
                    {"opened", s.opened},
                    {"last_used", s.last_used.empty() ? Json(nullptr) : Json(s.last_used)},
                    {"pinned", s.pinned}});
  }
  j["top"] = std::move(rows);
  return j;
}

}  // namespace lore::app
