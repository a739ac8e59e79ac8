// The MCP message handler (mcp/server.h with lore's tools, mcp/lore_server.h):
// each line of the input is one message to a fresh server, so a sequence such
// as initialize then tools/call is reachable. The server's store lies below
// /dev/null, so tools run their argument checks and then fail on the store:
// nothing is written anywhere. Property: every reply is one line of JSON, an
// object (or, for a batch, an array) carrying "jsonrpc":"2.0".
#include "check.h"
#include "lore/mcp/lore_server.h"

namespace {

using lore::Json;

constexpr size_t kMaxLines = 16;

void CheckReply(const std::string& reply) {
  if (reply.empty()) return;
  LORE_FUZZ_CHECK(reply.find('\n') == std::string::npos);
  Json j = Json::parse(reply, nullptr, false);
  LORE_FUZZ_CHECK(!j.is_discarded());
  if (j.is_array()) {
    LORE_FUZZ_CHECK(!j.empty());
    for (const auto& r : j) LORE_FUZZ_CHECK(r.is_object() && r.value("jsonrpc", "") == "2.0");
  } else {
    LORE_FUZZ_CHECK(j.is_object() && j.value("jsonrpc", "") == "2.0");
    LORE_FUZZ_CHECK(j.contains("result") != j.contains("error"));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const lore::store::Store kStore =
      lore::store::Store::AtDir("/dev/null/lore-fuzz", "fuzz-key");
  lore::mcp::Server server =
      lore::mcp::MakeLoreServer(kStore, lore::mcp::LoreServerOptions{"fuzz-repo", "fuzz-wave"});
  std::string_view input = lore::fuzz::Input(data, size);
  size_t lines = 0;
  while (!input.empty() && lines++ < kMaxLines) {
    size_t end = input.find('\n');
    std::string_view line = input.substr(0, end);
    input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
    if (line.size() > lore::mcp::kMaxMessageBytes) {
      CheckReply(server.TooLarge(line.substr(line.size() - 256), line.size()));
      continue;
    }
    CheckReply(server.HandleLine(line));
  }
  return 0;
}
