#include "lore/proposals/present.h"

#include <gtest/gtest.h>

#include "lore/proposals/propose_input.h"

namespace lore::proposals {
namespace {

Json Rec(const std::string& type, const std::string& subject, double conf,
         const std::string& evidence) {
  Json r = Json::object();
  r["type"] = type;
  r["subject"] = subject;
  r["confidence"] = conf;
  r["evidence"] = evidence;
  return r;
}

TEST(PresentTest, BatchesOfFour) {
  EXPECT_TRUE(Batches(0).empty());
  EXPECT_EQ(Batches(4).size(), 1u);
  EXPECT_EQ(Batches(5), (std::vector<std::vector<size_t>>{{0, 1, 2, 3}, {4}}));
  EXPECT_EQ(Batches(9).size(), 3u);
}

TEST(PresentTest, PromptText) {
  EXPECT_EQ(Prompt(2, 3),
            "Batch 2 of 3 \u2014 which learnings should be stored permanently? Unselected ones are "
            "archived as declined.");
  EXPECT_EQ(
      Prompt(1, 1),
      "Which learnings should be stored permanently? Unselected ones are archived as declined.");
}

TEST(PresentTest, LabelAndDescription) {
  EXPECT_EQ(Label(Rec("anti-pattern", "reducer always re-evaluates on unrelated state", 0.85, "")),
            "[anti-pa] | reducer always re-evaluates on unrelate\u2026 | conf=0.85");
  EXPECT_EQ(Label(Rec("convention", "npm audit --prod before every deploy", 0.92, "")),
            "[convent] | npm audit --prod before every deploy     | conf=0.92");
  EXPECT_EQ(Label(Rec("convention", std::string(40, 's'), 1, "")),
            "[convent] | " + std::string(40, 's') + " | conf=1.00");
  EXPECT_EQ(Description(Rec("x", "s", 0.5, "3 consecutive sessions hit the same pattern in W2")),
            "evidence: 3 consecutive sessions hit the same pattern in W2");
  EXPECT_EQ(Description(Rec("x", "s", 0.5, std::string(61, 'e'))),
            "evidence: " + std::string(59, 'e') + "\u2026");
  EXPECT_EQ(Description(Rec("x", "s", 0.5, std::string(60, 'e'))),
            "evidence: " + std::string(60, 'e'));
}

// Issue 38, finding 5: a queue line another program wrote may carry a
// terminal's codes (a title change, a cleared screen, hidden text): what
// lore prints of a proposal drops them, and its line breaks are spaces.
TEST(PresentTest, FieldsReachATerminalWithoutItsCodes) {
  const Json r = Rec("con\x1b[2Jvention", "set \x1b]0;owned\x07title\nnext", 0.5,
                     "\x1b[8mhidden\x1b[0m\rtext\x7f\xc2\x9b"
                     "2J");
  EXPECT_EQ(Label(r), "[convent] | set title next" + std::string(26, ' ') + " | conf=0.50");
  EXPECT_EQ(Description(r), "evidence: hidden text2J");  // the C1 CSI itself is gone
  Json w = Json::object();
  w["wave_id"] = "W\x1b[31m1";
  w["n"] = 3;
  EXPECT_EQ(FieldText(w, "wave_id"), "W1");
  EXPECT_EQ(FieldText(w, "n"), "3");
  EXPECT_EQ(FieldText(w, "none"), "");
}

TEST(PresentTest, WholeShowsEveryFieldInFullWrapped) {
  Json r = Json::object();
  r["type"] = "architecture-pattern";  // longer than the label's seven columns
  r["subject"] = "the reducer re-evaluates on unrelated state";
  r["insight"] =
      "the selector memoises on the whole store object, so any dispatch recomputes "
      "it; select the slice first";
  r["evidence"] = "three sessions";
  r["confidence"] = 0.85;
  const std::string out = Whole(r, 40, "> [ ] 1. ", "    ");
  EXPECT_EQ(out,
            "> [ ] 1. architecture-pattern,\n"
            "    confidence 0.85\n"
            "    the reducer re-evaluates on\n"
            "    unrelated state\n"
            "    insight: the selector memoises on\n"
            "             the whole store object, so\n"
            "             any dispatch recomputes it;\n"
            "             select the slice first\n"
            "    evidence: three sessions\n");
  // A word longer than a line is cut; control characters are spaces.
  EXPECT_EQ(Wrap(std::string(30, 'x') + "\ty", 20, "", ""),
            std::string(20, 'x') + "\n" + std::string(10, 'x') + " y\n");
}

TEST(PresentTest, ToFixedRoundsLikeJavaScript) {
  EXPECT_EQ(ToFixed2(0.125), "0.13");  // exact tie: JavaScript rounds up, printf to even
  EXPECT_EQ(ToFixed2(0.375), "0.38");
  EXPECT_EQ(ToFixed2(0.145), "0.14");  // the double is just below 0.145
  EXPECT_EQ(ToFixed2(0.5), "0.50");
  EXPECT_EQ(ToFixed2(0.999), "1.00");
  EXPECT_EQ(ToFixed2(0), "0.00");
  // Huge confidences in a foreign queue line: no overflow, JavaScript's text.
  EXPECT_EQ(ToFixed2(9.3e18), "9300000000000000000.00");
  EXPECT_EQ(ToFixed2(-9.3e18), "-9300000000000000000.00");
  EXPECT_EQ(ToFixed2(1e300), "1e+300");
  EXPECT_EQ(ToFixed2(99.995), "100.00");  // the double is just above 99.995: a carry
  EXPECT_EQ(ToFixed2(-0.001), "-0.00");
  EXPECT_EQ(ToFixed2(-0.0), "0.00");
}

TEST(ProposeInputTest, ConfidenceParsing) {
  EXPECT_EQ(ParseConfidence("0.85"), 0.85);
  EXPECT_EQ(ParseConfidence("1"), 1.0);
  EXPECT_EQ(ParseConfidence(".5"), 0.5);
  EXPECT_EQ(ParseConfidence("5e-1"), 0.5);
  EXPECT_EQ(ParseConfidence("-0.0001"), -0.0001);
  for (const char* bad : {"", "NaN", "nan", "Infinity", "0x1", "0.5x", "high", ".", "1e", "--1"}) {
    EXPECT_FALSE(ParseConfidence(bad).has_value()) << bad;
  }
}

TEST(ProposeInputTest, FilePaths) {
  std::vector<std::string> errors;
  EXPECT_EQ(SplitFilePaths({" src/a.cc , src/b.cc,", "src/a.cc,lib/c.h"}, &errors),
            (std::vector<std::string>{"src/a.cc", "src/b.cc", "lib/c.h"}));
  EXPECT_TRUE(errors.empty());
  SplitFilePaths({"/etc/passwd,../up,a/../b,~/x,C:\\w,ok/..x"}, &errors);
  EXPECT_EQ(errors.size(), 5u) << ::testing::PrintToString(errors);
  errors.clear();
  std::string many;
  for (int i = 0; i < 21; ++i) many += "f" + std::to_string(i) + ",";
  EXPECT_EQ(SplitFilePaths({many}, &errors).size(), 21u);
  EXPECT_EQ(errors,
            std::vector<std::string>{"--file-paths names 21 paths; at most 20 are allowed"});
  errors.clear();
  SplitFilePaths({std::string(257, 'p')}, &errors);
  EXPECT_EQ(errors, std::vector<std::string>{"--file-paths entry exceeds 256 chars (got 257)"});
  errors.clear();
  SplitFilePaths({std::string(256, 'p')}, &errors);
  EXPECT_TRUE(errors.empty());
}

TEST(ProposeInputTest, AllFlagProblemsTogether) {
  ProposeFlags f;
  f.type = "nope";
  f.subject = std::string(101, 's');
  f.confidence = "1.0001";
  f.file_paths = {"**"};
  Proposal p = CheckFlags(f, "");
  EXPECT_FALSE(p.wave_known);
  EXPECT_EQ(p.errors.size(), 6u) << ::testing::PrintToString(p.errors);
  f = ProposeFlags{};
  f.type = "convention";
  f.subject = f.insight = f.evidence = std::string("x");
  f.confidence = "0.5";
  p = CheckFlags(f, "W9");
  EXPECT_TRUE(p.errors.empty()) << ::testing::PrintToString(p.errors);
  EXPECT_TRUE(p.wave_known);
  EXPECT_EQ(p.fields.wave_id, "W9");
  f.wave = "bad wave";
  EXPECT_EQ(CheckFlags(f, "W9").errors,
            std::vector<std::string>{"wave_id must match ^[A-Za-z0-9_-]+$, got: \"bad wave\""});
}

}  // namespace
}  // namespace lore::proposals
