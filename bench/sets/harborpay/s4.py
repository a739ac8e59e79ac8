"""Session 4: GBP->EUR drift after the rounding fix; left open."""
from gen_lib import Session, head, test_lines

FXCLIENT = '''package com.harborpay.recon.fx

import org.springframework.cache.annotation.Cacheable
import org.springframework.stereotype.Component
import org.springframework.web.client.RestClient
import java.math.BigDecimal
import java.math.RoundingMode
import java.time.LocalDate

/** Daily reference rates from the rates provider, used by ledger-posting at capture time. */
@Component
class FxRateClient(private val rates: RestClient) {
    @Cacheable("fx-rates")
    fun rate(from: String, to: String, date: LocalDate): BigDecimal {
        if (from == to) return BigDecimal.ONE
        val body =
            rates.get()
                .uri("/v2/rates/{date}?base={from}&symbols={to}", date, from, to)
                .retrieve()
                .body(RateResponse::class.java)
                ?: throw FxRateUnavailableException(from, to, date)
        return body.rates.getValue(to)
            .setScale(6, RoundingMode.HALF_UP)
    }
}'''

NOTES = '''# HP-318 follow-up: GBP -> EUR drift (open)

Status: **open**, waiting for Brightwater integration support (asked 2026-11-12).

## Symptom
After the HALF_UP fix (PR #151) EUR and CZK merchants reconcile to the cent. GBP->EUR merchants still
drift, e.g. MRC-30417 Thornbury Cycles on 2026-11-10: settlement 9,114.52 vs ledger 9,114.50 vs payout 9,114.52.

## What we know
1. Ledger side converts with `FxRateClient` rates, scaled to 6 decimals; Brightwater's file carries 8-decimal
   rates. Using the file's 8-decimal rate on the ledger side (branch `fix/fx-drift-gbp`) removes 9 of the
   11 differing lines on 2026-11-10.
2. The 2 remaining lines (PSP-4be0917c, PSP-c81d22a0) are both cross-border cards with a 35 bp markup.
   Neither "markup on the rate, then round" nor "round, then markup, then round" reproduces Brightwater's
   settled_amount for both lines; each variant fixes one and breaks the other.
3. Spec v3.2 6.2 says the markup "is applied to the converted amount", but 4.4 says fx_rate is final.
   Contradictory for these lines.

## Hypothesis
Brightwater rounds the intermediate converted amount (before markup) to 4 decimals, or truncates it.
Could not confirm from the file alone.

## Next
- Wait for Brightwater's answer on the exact markup formula + intermediate rounding.
- Then finish `FxReconciliationTest` (currently @Disabled) and decide whether ledger-posting should
  take the rate from the settlement file instead of the provider.'''


def build(sid):
    s = Session(sid, "2026-11-12T14:22:09", "main")
    s.begin("s4_task")
    s.user("HP-318 follow up. finance reran after the deploy, eur and czk merchants are clean now but the GBP ones still drift. "
           "MRC-30417 on 11-10: settlement 9,114.52, ledger 9,114.50, payout 9,114.52. 11-10 file is in downloads. can you dig")
    s.end("s4_task")
    s.think(
        "So after the HALF_UP fix the settlement side matches the payout (9,114.52 = payout) but the ledger is lower "
        "by 0.02. Different from before: now the ledger is the odd one. For EUR/CZK it's clean, so the issue is "
        "specific to GBP->EUR conversion. In the last session's summary I noted that FxRateClient scales rates to 6 "
        "decimals while the file has 8. The ledger converts at capture time with the provider rate... if the provider "
        "rate and Brightwater's rate were different sources entirely, diffs would be much bigger than cents, and the "
        "per-line matching compares 4-dp amounts exactly - so lines would mismatch individually. Let me check: do "
        "GBP lines match individually? The ticket said earlier every line matched. For GBP lines they must be "
        "mismatching at line level now, or matching within... tolerance is zero. Let me look at the actual data "
        "rather than theorize. First the FX client and the ledger conversion, then load the 11-10 file.")
    s.say("Settlement now matches the payout and the ledger is the one that's low, and only for GBP→EUR. So this is on the FX conversion path, not the cents rounding. Checking how the ledger side converts.")
    s.read("src/main/kotlin/com/harborpay/recon/fx/FxRateClient.kt", FXCLIENT)
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -n 45,70p src/main/kotlin/com/harborpay/recon/ledger/LedgerPostingService.kt',
           "Ledger-side conversion",
           "    fun post(capture: CaptureEvent) {\n"
           "        val rate =\n"
           "            capture.settlementFxRate\n"
           "                ?: fxRates.rate(capture.currency, merchants.settlementCurrency(capture.merchantId), capture.capturedAt.toLocalDate())\n"
           "        if (capture.amount.signum() == 0) return\n"
           "        // ledger keeps 4 decimals, the recon rounds to cents (MoneyRounding)\n"
           "        val converted = capture.amount.multiply(rate).setScale(4, RoundingMode.HALF_UP)\n"
           "        client.post(\n"
           "            LedgerPostingRequest(\n"
           "                merchantId = capture.merchantId,\n"
           "                pspReference = capture.pspReference,\n"
           "                amount = converted,\n"
           "                currency = merchants.settlementCurrency(capture.merchantId),\n"
           "                fxRate = rate,\n"
           "            ),\n"
           "        )\n"
           "    }")
    s.bash('cd "C:/Users/amara/src/harborpay" && cp "C:/Users/amara/Downloads/BWA_20261110_01.csv" src/test/resources/fixtures/brightwater/ && '
           'grep "^TXN;MRC-30417" src/test/resources/fixtures/brightwater/BWA_20261110_01.csv | wc -l && '
           'grep "^TXN;MRC-30417" src/test/resources/fixtures/brightwater/BWA_20261110_01.csv | head -5',
           "Copy the 11-10 file and look at MRC-30417 lines",
           "86\n"
           "TXN;MRC-30417;PSP-1f03a7d2;74839201928374651200113;2026-11-09T08:14:22Z;VISA;CAPTURE;64.00;GBP;1.14913377;73.54\n"
           "TXN;MRC-30417;PSP-77ac10e5;74839201928374651200129;2026-11-09T08:51:09Z;MC;CAPTURE;219.99;GBP;1.14913377;252.79\n"
           "TXN;MRC-30417;PSP-4be0917c;74839201928374651200137;2026-11-09T09:30:47Z;VISA;CAPTURE;1249.00;GBP;1.14913377;1439.34\n"
           "TXN;MRC-30417;PSP-0e9d4b61;74839201928374651200145;2026-11-09T10:02:15Z;AMEX;CAPTURE;38.50;GBP;1.14913377;44.24\n"
           "TXN;MRC-30417;PSP-c81d22a0;74839201928374651200152;2026-11-09T11:47:58Z;VISA;CAPTURE;2875.40;GBP;1.14913377;3315.20")
    s.think(
        "Brightwater's rate is 1.14913377 (8 dp). Our provider would give 1.149134 at 6 dp (if the underlying source "
        "is the same reference rate). Difference: 0.00000023 per GBP. For 2875.40 GBP that's 0.00066 EUR - can move the "
        "4th decimal and occasionally the cent boundary. So rate precision explains small diffs on big tickets.\n\n"
        "But PSP-4be0917c: 1249.00 * 1.14913377 = 1435.2680787... but settled_amount is 1439.34! That's 4.07 more - "
        "about 0.28%... hmm, 1435.268 * 1.0035 = 1440.29. No. 1439.34 / 1435.268 = 1.002837. ~28 bp. Hmm, or markup "
        "35 bp on something. And PSP-c81d22a0: 2875.40 * 1.14913377 = 3304.2193... settled 3315.20 = ratio 1.003323... "
        "~33 bp. Those two lines have a markup applied that isn't in fx_rate, and with inconsistent effective bp. The "
        "spec said 6.2 markup applied to the converted amount (where agreed). But then the per-line match would fail "
        "by euros, not cents... unless ledger-posting also gets settlementFxRate from the capture event including "
        "markup. capture.settlementFxRate - where does that come from? The auth response from Brightwater includes an "
        "'effective rate' for DCC/cross-border cards. So for those lines the ledger uses the effective rate from the "
        "auth response, which has the markup baked in at 6 dp.\n\n"
        "I should stop reasoning in my head and write a test that computes, per line, our ledger amount vs the file's "
        "settled_amount with a few conversion variants, and prints which lines differ. Let me do that as a test class "
        "FxReconciliationTest using the fixture and a CSV of the ledger postings for that day (I'd need them: "
        "ledger postings for 11-10 - can I export from local db? No, local db doesn't have prod data). Alternative: "
        "simulate the ledger side with LedgerPostingService's formula using the provider rate at 6 dp - I can derive "
        "it by rounding the file rate to 6 dp, assuming same reference source. For the markup lines I need the auth "
        "effective rate... the file doesn't carry it. Hmm.\n\nStart with variant A (ledger uses 6-dp rate) vs variant "
        "B (8-dp file rate) and see how many lines differ.")
    s.bash("""cd "C:/Users/amara/src/harborpay" && printf 'import java.math.*\\nvar r = new BigDecimal("1.14913377")\\nfor (var a : new String[]{"1249.00","2875.40","219.99"}) { var x = new BigDecimal(a).multiply(r); System.out.println(a + " x 8dp = " + x + " | x 6dp = " + new BigDecimal(a).multiply(r.setScale(6, RoundingMode.HALF_UP))); }\\n/exit\\n' | jshell -q""",
           "Convert a few lines with 8-dp vs 6-dp rate",
           "1249.00 x 8dp = 1435.2680787300 | x 6dp = 1435.2683660000\n"
           "2875.40 x 8dp = 3304.2192425800 | x 6dp = 3304.2200686000\n"
           "219.99 x 8dp = 252.7939180623 | x 6dp = 252.7939806600", rdt=7)
    s.say("Two different things show up in MRC-30417's lines:\n\n"
          "1. Brightwater's rate has 8 decimals (`1.14913377`). `FxRateClient` rounds provider rates to **6** (`setScale(6, HALF_UP)`), and the ledger converts with that when the capture has no `settlementFxRate`. On big tickets that moves the 4th decimal and sometimes the cent.\n"
          "2. Some lines don't equal `original × fx_rate` at all. `PSP-4be0917c`: 1249.00 × 1.14913377 = 1435.27, but `settled_amount` is 1439.34. That looks like the cross-border markup from spec 6.2, applied on top of the file rate.\n\n"
          "I'll write a test that converts every GBP line of the 11-10 file in a few ways and counts the lines that disagree with Brightwater's `settled_amount`.")
    s.turn_end(121500)
    s.begin("s4_provider")
    s.user("does the rates provider even give us 8 decimals? if not this is moot")
    s.bash('cd "C:/Users/amara/src/harborpay" && cat src/test/resources/fx/provider-rates-2026-11-09.json && git log -L "/setScale(6/,+1:src/main/kotlin/com/harborpay/recon/fx/FxRateClient.kt" --oneline | head -12',
           "Recorded provider response and why rates are cut to 6 dp",
           "{\n  \"base\": \"GBP\",\n  \"date\": \"2026-11-09\",\n  \"source\": \"ecb-derived\",\n  \"rates\": {\n    \"EUR\": 1.1491337712,\n    \"CZK\": 28.9046612031\n  }\n}\n"
           "c71e4f2 HP-156 store fx rate with 6 decimals (ledger_posting.fx_rate is numeric(12,6))\n"
           "diff --git a/src/main/kotlin/com/harborpay/recon/fx/FxRateClient.kt b/src/main/kotlin/com/harborpay/recon/fx/FxRateClient.kt\n"
           "--- a/src/main/kotlin/com/harborpay/recon/fx/FxRateClient.kt\n+++ b/src/main/kotlin/com/harborpay/recon/fx/FxRateClient.kt\n"
           "@@ -24,1 +24,2 @@\n-        return body.rates.getValue(to)\n+        return body.rates.getValue(to)\n+            .setScale(6, RoundingMode.HALF_UP)")
    s.say("It does: the recorded provider response has 10 decimals (`1.1491337712`), which matches Brightwater's `1.14913377` at 8. The cut to 6 is ours, from `c71e4f2` (HP-156), because `ledger_posting.fx_rate` is `numeric(12,6)`. So keeping 8 decimals means `FxRateClient` plus a new migration widening that column (a new V file, not an edit). The cut to 6 explains the small drift. It doesn't explain the two markup lines.")
    s.end("s4_provider")
    s.turn_end(41230)
    s.user("ok keep going on the markup lines")
    s.bash('cd "C:/Users/amara/src/harborpay" && git checkout -b fix/fx-drift-gbp', "Branch for the investigation",
           "Switched to a new branch 'fix/fx-drift-gbp'")
    s.branch = "fix/fx-drift-gbp"
    s.write("src/test/kotlin/com/harborpay/recon/fx/FxReconciliationTest.kt",
            "package com.harborpay.recon.fx\n\n// HP-318 follow-up: GBP->EUR lines of BWA_20261110_01 vs our conversion variants\n"
            "class FxReconciliationTest {\n    // variant A: provider rate at 6 dp (current ledger behaviour)\n"
            "    // variant B: file rate at 8 dp\n    // variant C: file rate, markup bp applied to rate before rounding\n"
            "    // variant D: file rate, round converted to 2 dp, apply markup, round again\n"
            "    @Test\n    fun `variant B matches every non-markup line`() { /* ... */ }\n\n"
            "    @Test\n    fun `all GBP lines match brightwater settled amount`() { /* asserts zero mismatches, prints the rest */ }\n}")
    s.begin("s4_variants")
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test --tests "*FxReconciliationTest" -i 2>&1 | grep -E "variant|mismatch|PASSED|FAILED|expected"',
           "Run the FX variants test",
           "    variant A (provider 6dp): 11 of 86 MRC-30417 lines differ, total diff -0.02\n"
           "    variant B (file 8dp):     2 of 86 lines differ: PSP-4be0917c (+0.01), PSP-c81d22a0 (-0.01), total diff 0.00\n"
           "    variant C (markup on rate, 35bp): 2 of 86 lines differ: PSP-c81d22a0 (-0.01), PSP-4be0917c (+0.01)\n"
           "    variant D (round, markup, round): 1 of 86 lines differ: PSP-4be0917c (+0.01)\n"
           "FxReconciliationTest > variant B matches every non-markup line() PASSED\n"
           "FxReconciliationTest > all GBP lines match brightwater settled amount() FAILED\n"
           "    org.opentest4j.AssertionFailedError: mismatching lines: [PSP-4be0917c] ==> expected: <0> but was: <1>",
           err=True, rdt=31)
    s.think(
        "Interesting. Variant B (use the file's 8-dp rate) fixes 9 of the 11 lines; the two left are exactly the two "
        "markup lines. Total diff happens to be 0.00 for this merchant on this day because the two errors cancel, but "
        "that's luck, not correctness.\n\n"
        "Variant D (round the converted amount, apply 35 bp markup, round again) fixes PSP-c81d22a0 but not "
        "PSP-4be0917c. Let me try variant E: intermediate rounding to 4 dp before markup, and F: truncation. If E fixes "
        "both that's a strong hint.")
    s.bash("""cd "C:/Users/amara/src/harborpay" && printf 'import java.math.*\\nvar r = new BigDecimal("1.14913377")\\nSystem.out.println(new BigDecimal("1439.34").divide(new BigDecimal("1249.00").multiply(r), 8, RoundingMode.HALF_UP))\\nSystem.out.println(new BigDecimal("3315.20").divide(new BigDecimal("2875.40").multiply(r), 8, RoundingMode.HALF_UP))\\n/exit\\n' | jshell -q""",
           "Implied markup factor of the two remaining lines",
           "1.00283752\n1.00332326", rdt=6)
    s.say("Using the file's 8-decimal rate (variant B) fixes 9 of the 11 lines. The two left are exactly the markup lines, and each variant so far fixes one and breaks the other. Trying intermediate rounding to 4 decimals and truncation before the markup.")
    s.edit("src/test/kotlin/com/harborpay/recon/fx/FxReconciliationTest.kt",
           "    // variant D: file rate, round converted to 2 dp, apply markup, round again\n",
           "    // variant D: file rate, round converted to 2 dp, apply markup, round again\n"
           "    // variant E: converted rounded HALF_UP to 4 dp, markup, round to 2 dp\n"
           "    // variant F: converted truncated (DOWN) to 4 dp, markup, round to 2 dp\n",
           "    // variant D: file rate, round converted to 2 dp, apply markup, round again\n"
           "    // variant E: converted rounded HALF_UP to 4 dp, markup, round to 2 dp\n"
           "    // variant F: converted truncated (DOWN) to 4 dp, markup, round to 2 dp", 8)
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test --tests "*FxReconciliationTest" -i 2>&1 | grep -E "variant|PASSED|FAILED|expected"',
           "Rerun with variants E and F",
           "    variant A (provider 6dp): 11 of 86 MRC-30417 lines differ, total diff -0.02\n"
           "    variant B (file 8dp):     2 of 86 lines differ: PSP-4be0917c (+0.01), PSP-c81d22a0 (-0.01), total diff 0.00\n"
           "    variant C (markup on rate, 35bp): 2 of 86 lines differ: PSP-c81d22a0 (-0.01), PSP-4be0917c (+0.01)\n"
           "    variant D (round, markup, round): 1 of 86 lines differ: PSP-4be0917c (+0.01)\n"
           "    variant E (4dp half-up, markup, round): 1 of 86 lines differ: PSP-4be0917c (+0.01)\n"
           "    variant F (4dp down, markup, round): 1 of 86 lines differ: PSP-c81d22a0 (-0.01)\n"
           "FxReconciliationTest > variant B matches every non-markup line() PASSED\n"
           "FxReconciliationTest > all GBP lines match brightwater settled amount() FAILED\n"
           "    org.opentest4j.AssertionFailedError: mismatching lines: [PSP-4be0917c] ==> expected: <0> but was: <1>",
           err=True, rdt=29)
    s.end("s4_variants")
    s.begin("s4_diag")
    s.think(
        "Still no single formula that reproduces both markup lines. E and F each fix one. The effective markups I "
        "computed from the raw numbers were ~28 bp and ~33 bp, not 35 - so maybe the markup isn't a flat 35 bp; "
        "maybe it's tiered by card region or has a fixed component. I can't determine that from two data points. "
        "This needs Brightwater's actual formula. Spec 6.2 vs 4.4 contradict each other for these lines (4.4: fx_rate "
        "is the rate used; 6.2: markup applied to the converted amount - but not reflected in fx_rate).\n\n"
        "What I can do safely: the rate precision part (variant B) is a clear improvement - but it changes "
        "LedgerPostingService, which runs at capture time where the settlement file doesn't exist yet. The ledger "
        "can't use the file rate at capture time! Only the recon could re-derive. So variant B in the ledger isn't "
        "even possible as such; the fix would be to keep 8 dp from the provider (if the provider gives 8) - "
        "FxRateClient setScale(6) is ours. Changing it to 8 would be the real change. That's for the user to decide, "
        "and worth holding until the markup question is answered, since the fix may end up being 'take the rate "
        "from the auth response'.\n\n"
        "Write the notes down in docs/investigations, disable the failing assertion with a reason, commit to the "
        "branch (not main), don't open a PR.")
    s.say("I can't close this one from the file alone. Where it stands:\n\n"
          "- **Rate precision is real and fixable:** converting with 8-decimal rates instead of the 6 from `FxRateClient.setScale(6, …)` removes 9 of the 11 differing MRC-30417 lines on 11-10. At capture time the ledger doesn't have the settlement file, so the actual fix would be to keep 8 decimals in `FxRateClient` (if the provider delivers them) rather than \"use the file rate\".\n"
          "- **The markup lines are not explained:** `PSP-4be0917c` and `PSP-c81d22a0` are cross-border cards. Their implied markups are ~28 bp and ~33 bp, not a flat 35 bp. None of the six formulas I tried (markup on the rate, round→markup→round, 4-dp half-up or truncated intermediate) reproduces both. Each fixes one and breaks the other. Spec 4.4 (\"fx_rate is the rate\") and 6.2 (\"markup applied to the converted amount\") contradict each other for exactly these lines.\n\n"
          "My best guess is a tiered or partly fixed markup with intermediate rounding on Brightwater's side, but only their integration team can confirm the formula. I'd write the findings up and park the branch rather than ship a guess.")
    s.end("s4_diag")
    s.turn_end(263340)
    s.begin("s4_park")
    s.user("yeah leave it, ill email their integration team. write it up, dont merge the rate change yet")
    s.say("Writing it up in `docs/investigations/` so whoever picks up Brightwater's answer has the numbers.")
    s.write("docs/investigations/HP-318-fx-drift.md", NOTES)
    s.edit("src/test/kotlin/com/harborpay/recon/fx/FxReconciliationTest.kt",
           "    @Test\n    fun `all GBP lines match brightwater settled amount`()",
           "    @Disabled(\"HP-318: markup formula for cross-border cards unknown, waiting on Brightwater (docs/investigations/HP-318-fx-drift.md)\")\n"
           "    @Test\n    fun `all GBP lines match brightwater settled amount`()",
           "    @Disabled(\"HP-318: markup formula for cross-border cards unknown, waiting on Brightwater (docs/investigations/HP-318-fx-drift.md)\")\n"
           "    @Test\n    fun `all GBP lines match brightwater settled amount`()", 15)
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat ktlintFormat -q && ./gradlew.bat test --tests "*FxReconciliationTest" && git add -A && git commit -m "HP-318 WIP: GBP->EUR drift investigation notes + FX variant test (disabled)"',
           "Format, run the test class, commit WIP to the branch",
           "> Task :compileTestKotlin\n> Task :testClasses\n> Task :test\n\n"
           "FxReconciliationTest > variant B matches every non-markup line() PASSED\n\n"
           "FxReconciliationTest > all GBP lines match brightwater settled amount() SKIPPED\n\n"
           "Results: SUCCESS (2 tests, 1 passed, 0 failed, 1 skipped)\n\nBUILD SUCCESSFUL in 18s\n7 actionable tasks: 2 executed, 5 up-to-date\n"
           "Running ktlint over these files:\nsrc/test/kotlin/com/harborpay/recon/fx/FxReconciliationTest.kt\n\nBUILD SUCCESSFUL in 3s\n"
           "[fix/fx-drift-gbp 9a4c6e3] HP-318 WIP: GBP->EUR drift investigation notes + FX variant test (disabled)\n"
           " 3 files changed, 402 insertions(+)\n"
           " create mode 100644 docs/investigations/HP-318-fx-drift.md\n"
           " create mode 100644 src/test/kotlin/com/harborpay/recon/fx/FxReconciliationTest.kt\n"
           " create mode 100644 src/test/resources/fixtures/brightwater/BWA_20261110_01.csv", rdt=26)
    s.bash('cd "C:/Users/amara/src/harborpay" && git push -u origin fix/fx-drift-gbp 2>&1 | tail -2', "Push the WIP branch (no PR)",
           " * [new branch]      fix/fx-drift-gbp -> fix/fx-drift-gbp\nbranch 'fix/fx-drift-gbp' set up to track 'origin/fix/fx-drift-gbp'.")
    s.end("s4_park")
    s.begin("s4_summary")
    s.say("Written up and parked. Nothing is merged and no PR is open.\n\n"
          "**State**\n"
          "- Branch `fix/fx-drift-gbp` (commit `9a4c6e3`, pushed): `docs/investigations/HP-318-fx-drift.md`, the 11-10 file as a fixture, and `FxReconciliationTest`. Its \"all GBP lines match\" test is `@Disabled` with a pointer to the notes, and the variant B test passes.\n"
          "- No production code changed. `FxRateClient` still scales to 6 decimals, as you asked.\n\n"
          "**Still open: GBP→EUR drift**\n"
          "- 9 of 11 differing lines come from rate precision (6 vs 8 decimals). That part is understood and has a clear fix once we decide to take it.\n"
          "- 2 lines (`PSP-4be0917c`, `PSP-c81d22a0`, cross-border cards with a markup) don't match any formula I tried. The implied markups (~28 and ~33 bp) aren't a flat 35 bp, and the spec contradicts itself (4.4 vs 6.2). We need Brightwater's exact markup formula and their intermediate rounding before the ledger side can reproduce it.\n\n"
          "When their answer comes in: implement the formula in the test first, un-disable it, then decide between 8-decimal provider rates and taking the effective rate from the auth response in `LedgerPostingService`.")
    s.end("s4_summary")
    s.turn_end(98412)
    return s
