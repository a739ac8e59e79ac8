#include "lore/proposals/propose_input.h"

#include <gtest/gtest.h>

namespace lore::proposals {
namespace {

ProposeFlags Flags() {
  ProposeFlags f;
  f.type = "convention";
  f.subject = "s";
  f.insight = "i";
  f.evidence = "e";
  f.confidence = "0.5";
  f.wave = "W1";
  return f;
}

bool Has(const Proposal& p, std::string_view text) {
  for (const std::string& e : p.errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

// Issue 25: --wave, LORE_WAVE, --agent and --file-paths pass the redactor.
TEST(ProposeInput, WaveAgentAndPathsAreCleaned) {
  ProposeFlags f = Flags();
  f.agent = "bot xoxb-1234567890-abcdefghijkl";
  f.file_paths = {"src/a.cc,docs/<private>x</private>b.md"};
  Proposal p = CheckFlags(f, "");
  EXPECT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(*p.fields.proposed_by_agent, "bot [REDACTED:slack-token]");
  EXPECT_EQ(p.fields.file_paths, (std::vector<std::string>{"src/a.cc", "docs/b.md"}));

  f = Flags();
  f.wave = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
  p = CheckFlags(f, "");
  EXPECT_TRUE(Has(p,
                  "wave_id must match ^[A-Za-z0-9_-]+$, got: \"[REDACTED:github-token]\" "
                  "(after removing private spans and secrets)"));
  f.wave.reset();
  p = CheckFlags(f, "sk_live_abcdefghij0123456789ABCD");
  EXPECT_TRUE(Has(p, "[REDACTED:stripe-key]")) << p.errors.front();
  EXPECT_EQ(p.fields.wave_id.find("abcdefghij0123456789"), std::string::npos);

  f = Flags();
  f.file_paths = {"config/npm_abcdefghijklmnopqrstuvwxyz0123456789.txt"};
  p = CheckFlags(f, "");
  EXPECT_TRUE(Has(p,
                  "--file-paths entry \"config/[REDACTED:npm-token].txt\" is a glob; give "
                  "plain paths (no * ? [ ] { }) (after removing private spans and secrets)"));
}

// Issue 38, finding 6: a wave is an id, one word: a token glued to a letter
// of it or to '-' is found too, and the wave is refused.
TEST(ProposeInput, AWaveWithATokenGluedToItsWordsIsRefused) {
  for (const std::string wave : {"sghp_1234567890abcdefghijABCDEFGHIJ123456",
                                 "wave-ghp_1234567890abcdefghijABCDEFGHIJ123456"}) {
    ProposeFlags f = Flags();
    f.wave = wave;
    Proposal p = CheckFlags(f, "");
    EXPECT_TRUE(Has(p, "[REDACTED:github-token]\" (after removing private spans and secrets)"))
        << wave;
    EXPECT_EQ(p.fields.wave_id.find("1234567890abcdefghij"), std::string::npos) << wave;
  }
  ProposeFlags f = Flags();
  f.wave = "wave-2026-05-01";
  EXPECT_TRUE(CheckFlags(f, "").errors.empty());
}

}  // namespace
}  // namespace lore::proposals
