#include "lore/consolidate/run_lock.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "lore/consolidate/staging.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::consolidate {
namespace {

// How long a run refused by the lock waits for the holder's body: 40 x 5 ms.
constexpr int kHolderWaitPolls = 40;
constexpr std::chrono::milliseconds kHolderWaitPoll{5};

std::string LockPath(const store::Store& store) {
  return fs::Join(store.Path(kStagingDir), kLockName);
}

// The holder publishes who it is once it has read the staged entries
// (runner.cpp); until then the body is empty. Give it a moment, so that the
// refusal can name it.
std::optional<LockBody> WaitForHolder(const std::string& path) {
  for (int wait = 0; wait < kHolderWaitPolls; ++wait) {
    if (wait > 0) std::this_thread::sleep_for(kHolderWaitPoll);
    auto view = fs::PeekLockFile(path);
    if (!view || !*view) continue;
    if (auto body = ParseLockBody((*view)->body)) return body;
  }
  return std::nullopt;
}

}  // namespace

std::string RenderLockBody(const LockBody& b) {
  Json j = {{"pid", b.pid},
            {"pod_name", b.pod_name},
            {"started_at", b.started_at},
            {"consumed_ids", b.consumed_ids}};
  return j.dump() + "\n";
}

std::optional<LockBody> ParseLockBody(std::string_view text) {
  auto parsed = json::ParseOrdered(text, json::Limits{});
  if (!parsed || !parsed->is_object()) return std::nullopt;
  const Json& j = *parsed;
  LockBody b;
  auto pid = j.find("pid");
  if (pid == j.end() || !pid->is_number_integer()) return std::nullopt;
  b.pid = pid->get<int64_t>();
  if (auto p = j.find("pod_name"); p != j.end() && p->is_string())
    b.pod_name = p->get<std::string>();
  if (auto s = j.find("started_at"); s != j.end() && s->is_string())
    b.started_at = s->get<std::string>();
  if (auto c = j.find("consumed_ids"); c != j.end() && c->is_array()) {
    for (const auto& id : *c) {
      if (id.is_string()) b.consumed_ids.push_back(id.get<std::string>());
    }
  }
  return b;
}

Result<RunLock::Attempt> RunLock::TryAcquire(const store::Store& store) {
  const std::string path = LockPath(store);
  auto lock = fs::FileLock::Acquire(path, {fs::LockMode::kExclusive, std::chrono::milliseconds(0),
                                           fs::LockTarget::kOwnedFile, "the consolidation lock"});
  Attempt out;
  if (!lock) {
    if (lock.error().code != ErrorCode::kBusy) return tl::unexpected(lock.error());
    out.holder = WaitForHolder(path);
    return out;
  }
  // An empty file is ours (just created) or a holder's that died before
  // publishing: both are taken silently.
  if (!lock->left_body().empty()) {
    out.reclaimed = ParseLockBody(lock->left_body());
    out.reclaimed_empty = !out.reclaimed;
  }
  out.lock.emplace(RunLock(std::move(*lock)));
  return out;
}

Result<std::optional<LockView>> InspectRunLock(const store::Store& store) {
  LORE_ASSIGN(std::optional<fs::LockFileView> file, fs::PeekLockFile(LockPath(store)));
  if (!file) return std::optional<LockView>();
  LockView v;
  auto body = ParseLockBody(file->body);
  if (!body) return std::optional<LockView>(v);  // being written, or left empty by a dead holder
  v.body = *body;
  const fs::HolderState state = fs::Judge(body->holder(), file->mtime);
  v.alive = state == fs::HolderState::kLive || state == fs::HolderState::kForeign;
  return std::optional<LockView>(v);
}

}  // namespace lore::consolidate
