// What the agents wrote down themselves (src/agentmem/agentmem.h), from any
// bytes: a Markdown file read as an instruction file (memory sections), as
// Codex's memories (sections naming a project), as a whole file and as a
// Claude Code topic file. Every fact lies within the input's lines and holds
// no newline; the memory sections are a subset of all the bullets.
#include <string>

#include "agentmem/agentmem.h"
#include "check.h"
#include "lore/text/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in = lore::text::ReplaceInvalidUtf8(lore::fuzz::Input(data, size));
  int64_t lines = 1;
  for (char c : in) lines += c == '\n';
  auto within = [&](const std::vector<lore::agentmem::Fact>& facts) {
    for (const auto& f : facts) {
      LORE_FUZZ_CHECK(f.line >= 1 && f.line <= lines);
      LORE_FUZZ_CHECK(f.text.find('\n') == std::string::npos);
      LORE_FUZZ_CHECK(!f.text.empty() && f.text.front() != ' ' && f.text.back() != ' ');
      LORE_FUZZ_CHECK(lore::text::IsValidUtf8(f.text));
    }
  };
  auto all = lore::agentmem::Bullets(in, false, "");
  auto memory = lore::agentmem::Bullets(in, true, "");
  auto named = lore::agentmem::Bullets(in, false, "widgets");
  within(all);
  within(memory);
  within(named);
  LORE_FUZZ_CHECK(memory.size() <= all.size());
  LORE_FUZZ_CHECK(named.size() <= all.size());
  within(lore::agentmem::TopicFile(in));
  return 0;
}
