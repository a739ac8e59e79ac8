#include "lore/app/hook.h"

#include "lore/extract/settings.h"
#include "lore/hook/pre_tool_use.h"

namespace lore::app {

bool FirstHookWarning(std::string_view cause, std::string_view payload_head, text::TimePoint now) {
  return hook::FirstWarning(store::Env::FromProcess(), cause, hook::SessionIdInHead(payload_head),
                            now);
}

hook::Payload ParseHookPayload(std::string_view input, std::optional<Error>* problem) {
  return hook::ParsePayload(input, problem);
}

Result<bool> AuditToolUse(std::string_view payload, std::string_view wave,
                          std::string_view process_cwd, text::TimePoint now) {
  return hook::RecordPreToolUse(payload, store::Env::FromProcess(), wave, process_cwd, now);
}

Result<SessionStartAnswer> StartSession(const store::Store& store, std::string_view source,
                                        const std::string& repo) {
  LORE_ASSIGN(std::string context, hook::SessionStartContext(store, source, repo));
  SessionStartAnswer out;
  if (!context.empty()) out.json = hook::SessionStartJson(context);
  if (auto at = CheckoutAtPath(repo); at && SymbolsNeedBuild(store, *at)) out.symbols = *at;
  return out;
}

Result<hook::Command> ExtractThenConsolidateRun(const store::Store& store,
                                                const std::string& lore_binary,
                                                std::string_view repo,
                                                const hook::Payload& payload) {
  if (payload.transcript_path.empty()) return hook::Command{};
  return hook::ExtractCommand(store, lore_binary, repo, payload, /*then_consolidate=*/true);
}

Result<hook::Command> FlushRun(const store::Store& store, const std::string& lore_binary,
                               std::string_view repo) {
  return hook::FlushCommand(store, lore_binary, repo);
}

Result<hook::Command> StopRun(const store::Store& store, const std::string& lore_binary,
                              std::string_view repo, const hook::Payload& payload) {
  LORE_ASSIGN(extract::Settings settings, extract::LoadSettings(store));
  return hook::ExtractCommand(store, lore_binary, repo, payload, /*then_consolidate=*/false,
                              settings.threshold_bytes);
}

Result<std::string> EndSession(const store::Store& store, std::string_view repo,
                               std::string_view session_id) {
  EndRecallSession(store, session_id);
  return hook::SessionEndReminder(store, repo, session_id);  // checks the store
}

}  // namespace lore::app
