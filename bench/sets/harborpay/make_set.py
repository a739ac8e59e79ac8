"""Regenerate the harborpay check set: python3 make_set.py (from this folder)."""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen_lib  # noqa: E402
import s1, s2, s3, s4  # noqa: E402

PROJECT = "harborpay"
SIDS = [gen_lib.uid() for _ in range(4)]

sessions = [s1.build(SIDS[0]), s2.build(SIDS[1]), s3.build(SIDS[2]), s4.build(SIDS[3])]
S1, S2, S3, S4 = sessions

os.makedirs(os.path.join(HERE, "sessions", PROJECT), exist_ok=True)
meta = []
for s in sessions:
    rel = f"sessions/{PROJECT}/{s.sid}.jsonl"
    n = s.dump(os.path.join(HERE, rel))
    first = next(d["timestamp"] for d in s.lines if "timestamp" in d)
    meta.append({"id": s.sid, "file": rel, "first_timestamp": first, "lines": n, "malformed_lines": 0,
                 "cwds": [gen_lib.CWD]})

projects = {
    "projects": [{
        "name": PROJECT,
        "origin": "https://github.com/harborpay/harborpay",
        "origin_note": "invented",
        "description": "Kotlin/Spring Boot 3 payments-reconciliation service (Brightwater settlement files vs ledger), "
                       "Gradle, Flyway, Testcontainers; developed on Windows with Git Bash.",
        "cwds": [gen_lib.CWD],
        "sessions": meta,
    }],
    "plant_session": S2.sid,
}
with open(os.path.join(HERE, "projects.json"), "w") as f:
    json.dump(projects, f, indent=2, ensure_ascii=False)
    f.write("\n")


def q(i, kind, question, answer, keys, source, needs):
    return {"id": f"hp-{i:02d}", "project": PROJECT, "kind": kind, "question": question, "answer": answer,
            "keys": keys, "source": source, "needs_agent_text": needs}


questions = [
    q(1, "what-failed",
      "Why did AdjustmentRowParsingTest fail when ADJ parsing was first added?",
      "Two failures: parseAmount() was a bare BigDecimal(raw) and threw NumberFormatException on accounting-style "
      "'(12.50)'; the reason code '4837 ' had a trailing space so ChargebackReasonCodes returned UNKNOWN instead of "
      "FRAUD_NO_AUTH. Fixed by handling parentheses as negative and trimming the reason code.",
      [["numberformatexception", "parenthes", "(12.50)"], ["trailing space", "padded", "trim"]],
      S1.src("s1_fail"), True),
    q(2, "how-fixed",
      "How was the ADJ parsing test failure fixed, and did the suite pass afterwards?",
      "parseAmount() now strips parentheses and negates ('(12.50)' -> -12.50) and drops thousands separators; reason "
      "codes are trimmed before categorising. The full ./gradlew.bat test run then passed (BUILD SUCCESSFUL).",
      [["parenthes", "negate"], ["trim"], ["build successful", "all 7", "tests pass", "passed"]],
      S1.src("s1_fail") + "; " + S1.src("s1_fix") + "; " + S1.src("s1_thousands"), True),
    q(3, "what-failed",
      "What did the pre-commit hook reject on the chargeback adjustments commit and how was it resolved?",
      "The ktlint pre-commit hook failed: wildcard import in SettlementCsvParser.kt, blank line before '}' and two "
      "lines over 120 chars in PayoutAdjustment.kt. ./gradlew.bat ktlintFormat fixed the first two, the long "
      "annotation lines were wrapped by hand; the commit then landed as 3e9c1a7.",
      [["ktlint"], ["wildcard", "max line length", "max-line-length", "blank line"], ["ktlintformat", "3e9c1a7"]],
      S1.src("s1_hook"), True),
    q(4, "convention",
      "What do I need to do before committing in harborpay, and where do commits go?",
      "Always run ./gradlew.bat ktlintFormat before committing (the hook runs ktlint); never commit to main directly, "
      "always a feature branch + PR.",
      [["ktlintformat"], ["feature branch", "never commit to main", "never commit to `main`"]],
      S1.src("s1_conv"), False),
    q(5, "convention",
      "What's the rule for changing a Flyway migration?",
      "Never edit a migration once it is merged (staging/prod already applied it); always add a new V file; and don't "
      "use flyway repair.",
      [["never edit", "dont touch", "don't touch", "immutable"], ["new v file", "new `v<n>", "new v<n>", "v15"]],
      S3.src("s3_conv"), False),
    q(6, "what-failed",
      "Why were the daily reconciliation totals drifting by a few cents (HP-318)?",
      "Commit a41c9d2 (HP-290, shipped in v1.14.0) made SettlementAggregator round each 4-decimal line to cents with "
      "HALF_EVEN (banker's rounding) while LedgerTotalsService kept HALF_UP. Lines exactly on a half cent with an even "
      "cent digit lost 0.01 on the settlement side, so the ledger was never lower (MRC-20931 11-03: 48,211.37 vs 48,211.40).",
      [["half_even", "banker"], ["half_up", "half-up"], ["settlementaggregator", "a41c9d2", "hp-290"]],
      S2.src("s2_repro"), True),
    q(7, "why-decision",
      "Why did we choose HALF_UP instead of banker's rounding for recon totals?",
      "Option 2 was picked: Brightwater's spec (4.3) rounds each converted transaction half-up to 2 decimals and pays out "
      "the sum, so our settlement total has to reproduce that; HALF_EVEN would keep differing from the real payout. "
      "HALF_EVEN everywhere or a tolerance were rejected.",
      [["half_up", "half-up"], ["brightwater", "payout", "spec 4.3"]],
      S2.src("s2_repro") + "; " + S2.src("s2_decision"), True),
    q(8, "where-is",
      "Where is the single rounding rule for money defined?",
      "src/main/kotlin/com/harborpay/recon/money/MoneyRounding.kt (object MoneyRounding, MODE = HALF_UP, toCents()), "
      "used by SettlementAggregator, LedgerTotalsService and DailyReconReportWriter.",
      [["moneyrounding"], ["toCents".lower(), "half_up", "recon/money"]],
      S2.src("s2_decision") + "; " + S2.src("s2_summary"), True),
    q(9, "why-decision",
      "Why did the idempotent settlement import use a database unique constraint rather than an in-process check?",
      "The SFTP poller runs on 2 replicas and its only duplicate check is a pod-local archive folder on an emptyDir, so "
      "an in-memory/archive check can't see the other pod's import (and ShedLock would only serialise polling). A unique "
      "constraint on settlement_batch (acquirer_code, batch_ref) plus file_sha256 makes re-imports harmless.",
      [["unique constraint", "uq_settlement_batch_acquirer_ref"], ["two pods", "2 replicas", "other pod", "both pods"]],
      S3.src("s3_decision"), True),
    q(10, "how-fixed",
      "bootRun failed with a Flyway checksum mismatch during HP-324. What caused it and how was it fixed?",
      "The agent had appended the unique constraint to the already-applied V14__payout_adjustments.sql, so Flyway "
      "validation failed ('Migration checksum mismatch for migration version 14'). V14 was restored with git checkout and "
      "the change moved to V15__settlement_batch_idempotency.sql; bootRun then migrated to v15 and started.",
      [["checksum mismatch"], ["v14"], ["v15"]],
      S3.src("s3_v14") + "; " + S3.src("s3_conv"), True),
    q(11, "what-failed",
      "Why did SettlementImportIdempotencyIT fail the first time it ran?",
      "Testcontainers could not find a valid Docker environment: Docker Desktop had crashed (no dockerDesktopLinuxEngine "
      "pipe). After the person restarted it, the 3 tests passed.",
      [["docker"], ["could not find a valid docker environment", "crashed", "not running", "isn't running"]],
      S3.src("s3_docker"), True),
    q(12, "where-is",
      "Which migration made settlement batches unique, and what metric counts skipped duplicate files?",
      "V15__settlement_batch_idempotency.sql (dedupes, adds file_sha256 and uq_settlement_batch_acquirer_ref); duplicates "
      "are counted in harborpay.settlement.import.duplicates (tag acquirer).",
      [["v15__settlement_batch_idempotency", "v15"], ["harborpay.settlement.import.duplicates"]],
      S3.src("s3_summary"), True),
    q(13, "open-problem",
      "Is the GBP to EUR reconciliation drift fixed?",
      "No. Using 8-decimal rates instead of FxRateClient's 6 fixes 9 of 11 differing MRC-30417 lines, but two "
      "cross-border markup lines (PSP-4be0917c, PSP-c81d22a0) match no formula tried; spec 4.4 vs 6.2 contradict. "
      "Waiting on Brightwater's integration team for the markup formula.",
      [["markup"], ["psp-4be0917c", "psp-c81d22a0", "2 lines", "two markup lines"], ["brightwater", "integration team"]],
      S4.src("s4_diag") + "; " + S4.src("s4_summary"), True),
    q(14, "what-state",
      "What state is the fix/fx-drift-gbp branch in?",
      "WIP commit 9a4c6e3 pushed, no PR and not merged: investigation notes, the 11-10 fixture and FxReconciliationTest "
      "with the all-lines test @Disabled; FxRateClient still scales rates to 6 decimals (rate change not merged on purpose).",
      [["fx-drift-gbp", "9a4c6e3"], ["disabled"], ["no pr", "not merged", "nothing is merged", "dont merge", "don't merge"]],
      S4.src("s4_park") + "; " + S4.src("s4_summary"), True),
    q(15, "where-is",
      "Where are the notes on the GBP FX drift investigation?",
      "docs/investigations/HP-318-fx-drift.md on branch fix/fx-drift-gbp.",
      [["docs/investigations/hp-318-fx-drift.md", "hp-318-fx-drift.md"]],
      S4.src("s4_park"), True),
    q(16, "what-state",
      "Which release introduced the recon rounding drift, and what did we ask finance to do after the fix?",
      "v1.14.0 (tagged 2026-10-26, contains a41c9d2); finance reruns recon for 2026-10-27 to 2026-11-04 after the "
      "deploy of PR #151.",
      [["1.14.0"], ["rerun"]],
      S2.src("s2_history") + "; " + S2.src("s2_commit"), True),
]

briefing = [
    {"id": "hp-b1", "project": PROJECT,
     "fact": "What the project is: harborpay, a Kotlin/Spring Boot 3 service that imports Brightwater settlement files "
             "and reconciles them against ledger postings (Gradle, Flyway, Testcontainers; Windows, ./gradlew.bat).",
     "keys": [["reconcil", "recon"], ["brightwater", "settlement"], ["kotlin", "spring boot", "gradle"]],
     "source": S1.src("s1_task").split(" ")[0] + " L1-L12"},
    {"id": "hp-b2", "project": PROJECT,
     "fact": "Last task: GBP->EUR drift investigation (HP-318 follow-up) parked on branch fix/fx-drift-gbp; notes in "
             "docs/investigations/HP-318-fx-drift.md, FxReconciliationTest disabled, not merged.",
     "keys": [["fx-drift-gbp", "hp-318-fx-drift"], ["gbp"]],
     "source": S4.src("s4_park") + "; " + S4.src("s4_summary")},
    {"id": "hp-b3", "project": PROJECT,
     "fact": "Open problem: two cross-border markup lines still differ by 0.01; the markup formula is unknown, waiting on "
             "Brightwater's integration team.",
     "keys": [["markup"], ["brightwater", "integration team"]],
     "source": S4.src("s4_diag") + "; " + S4.src("s4_summary")},
    {"id": "hp-b4", "project": PROJECT,
     "fact": "Conventions: run ./gradlew.bat ktlintFormat before committing; never commit to main (feature branch + PR); "
             "never edit a merged Flyway migration, add a new V file.",
     "keys": [["ktlintformat"], ["migration"], ["feature branch", "never commit to main"]],
     "source": S1.src("s1_conv") + "; " + S3.src("s3_conv")},
    {"id": "hp-b5", "project": PROJECT,
     "fact": "Key file: MoneyRounding.kt (HALF_UP) is the single money rounding rule; recon totals must round like "
             "Brightwater (half-up per transaction).",
     "keys": [["moneyrounding"], ["half_up", "half-up"]],
     "source": S2.src("s2_decision") + "; " + S2.src("s2_summary")},
]

with open(os.path.join(HERE, "questions.jsonl"), "w") as f:
    for x in questions:
        f.write(json.dumps(x, ensure_ascii=False) + "\n")
with open(os.path.join(HERE, "briefing.jsonl"), "w") as f:
    for x in briefing:
        f.write(json.dumps(x, ensure_ascii=False) + "\n")

# --- key check ---------------------------------------------------------------
raw = {s.sid: open(os.path.join(HERE, f"sessions/{PROJECT}/{s.sid}.jsonl"), encoding="utf-8").read().split("\n")
       for s in sessions}


def norm(t):
    return re.sub(r"\s+", " ", t.lower())


def cited(source):
    out = []
    for part in source.split("; "):
        sid, rng_ = part.split(" ")
        a, b = rng_[1:].split("-L")
        out.extend(raw[sid][int(a) - 1:int(b)])
    return norm("\n".join(out))


bad = 0
for x in questions + briefing:
    text = cited(x["source"])
    for g in x["keys"]:
        if not any(norm(p) in text for p in g):
            bad += 1
            print("MISSING", x["id"], g)
kinds = {x["kind"] for x in questions}
print(f"sessions: {[m['lines'] for m in meta]}; questions {len(questions)}; facts {len(briefing)}; kinds {sorted(kinds)}; "
      f"bad key groups {bad}")
