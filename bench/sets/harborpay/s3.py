"""Session 3: idempotent settlement import, Flyway checksum mismatch, Docker, compaction."""
from gen_lib import Session, head, test_lines
from catalog import BASE

POLLER = '''package com.harborpay.recon.importer

import org.slf4j.LoggerFactory
import org.springframework.beans.factory.annotation.Value
import org.springframework.integration.sftp.session.DefaultSftpSessionFactory
import org.springframework.scheduling.annotation.Scheduled
import org.springframework.stereotype.Component
import java.nio.file.Files
import java.nio.file.Path

/**
 * Polls Brightwater's SFTP drop every 10 minutes on every pod. Downloads files that are not yet
 * in the local archive, imports them and moves them to /outbound/settlement/processed.
 */
@Component
class SftpSettlementPoller(
    private val sessionFactory: DefaultSftpSessionFactory,
    private val importService: SettlementImportService,
    @Value("\\${harborpay.sftp.remote-dir}") private val remoteDir: String,
    @Value("\\${harborpay.sftp.work-dir}") private val workDir: Path,
) {
    private val log = LoggerFactory.getLogger(javaClass)

    @Scheduled(fixedDelayString = "PT10M", initialDelayString = "PT1M")
    fun poll() {
        sessionFactory.session.use { session ->
            session.list(remoteDir).filter { it.filename.endsWith(".csv") }.forEach { entry ->
                val local = workDir.resolve(entry.filename)
                if (Files.exists(workDir.resolve("archive").resolve(entry.filename))) return@forEach
                Files.newOutputStream(local).use { out -> session.read("$remoteDir/${entry.filename}", out) }
                try {
                    importService.import(local)
                    session.rename("$remoteDir/${entry.filename}", "$remoteDir/processed/${entry.filename}")
                    Files.move(local, workDir.resolve("archive").resolve(entry.filename))
                } catch (e: Exception) {
                    log.error("import of {} failed, leaving it on the drop", entry.filename, e)
                }
            }
        }
    }
}'''

V3 = '''create table settlement_batch (
    id               bigserial primary key,
    acquirer_code    varchar(8)   not null,
    batch_ref        varchar(32)  not null,
    settlement_date  date         not null,
    currency         char(3)      not null,
    file_name        varchar(128) not null,
    file_size        bigint       not null,
    imported_at      timestamptz  not null default now()
);

create index idx_settlement_batch_date on settlement_batch (settlement_date);'''

V15 = '''-- HP-324: make settlement import idempotent.
-- BW-20261107-01 was imported twice on 2026-11-07 (two pods polled the drop at the same time).
-- Keep the first import of every (acquirer_code, batch_ref), drop later copies; lines, fees and
-- adjustments go with them (on delete cascade).
delete from settlement_batch b
using settlement_batch keep
where b.acquirer_code = keep.acquirer_code
  and b.batch_ref = keep.batch_ref
  and b.id > keep.id;

alter table settlement_batch
    add column file_sha256 char(64);

alter table settlement_batch
    add constraint uq_settlement_batch_acquirer_ref unique (acquirer_code, batch_ref);'''

IT = '''package com.harborpay.recon.importer

import com.harborpay.recon.importer.model.SettlementBatchRepository
import com.harborpay.recon.importer.model.SettlementLineRepository
import com.harborpay.recon.support.PostgresIT
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import java.nio.file.Path
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

class SettlementImportIdempotencyIT : PostgresIT() {
    @Autowired lateinit var importService: SettlementImportService

    @Autowired lateinit var batches: SettlementBatchRepository

    @Autowired lateinit var lines: SettlementLineRepository

    private val file = Path.of(javaClass.getResource("/fixtures/brightwater/BWA_20261028_01.csv")!!.toURI())

    @Test
    fun `importing the same file twice keeps one batch`() {
        val first = importService.import(file)
        val second = importService.import(file)
        assertEquals(first.id, second.id)
        assertEquals(1, batches.count())
        assertEquals(5, lines.count())
    }

    @Test
    fun `same batch ref with different content is rejected`() { /* ... */ }

    @Test
    fun `two concurrent imports of the same file store one batch`() {
        val pool = Executors.newFixedThreadPool(2)
        repeat(2) { pool.submit { importService.import(file) } }
        pool.shutdown()
        pool.awaitTermination(30, TimeUnit.SECONDS)
        assertEquals(1, batches.count())
    }
}'''

SUMMARY = """This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:
Analysis:
The user asked to make the Brightwater settlement import idempotent after batch BW-20261107-01 was imported twice on Saturday 2026-11-07 by the SFTP poller. I read SftpSettlementPoller (runs every 10 min on every pod, only dedupes via the pod-local archive folder) and SettlementImportService (no duplicate check at all). I decided on a database unique constraint on settlement_batch (acquirer_code, batch_ref) plus a file_sha256 column, because the poller runs on both prod pods and an in-memory or local-archive check cannot see the other pod's import; ShedLock only guards the nightly recon job, not the poller.

I first appended the constraint to the existing V14__payout_adjustments.sql. `./gradlew.bat bootRun` against the local docker compose Postgres then failed Flyway validation: "Migration checksum mismatch for migration version 14". The user said V14 is already applied on staging and gave a rule: never edit a migration once it is merged, always add a new V file. I restored V14 with `git checkout -- src/main/resources/db/migration/V14__payout_adjustments.sql` and wrote V15__settlement_batch_idempotency.sql instead (deletes later duplicate batches first, keeping the lowest id, because prod already contains the duplicate BW-20261107-01; then adds file_sha256 and constraint uq_settlement_batch_acquirer_ref). bootRun then started cleanly ("Successfully applied 1 migration to schema \\"public\\", now at version v15").

Summary:
1. Primary Request and Intent:
   - Make settlement import idempotent (HP-324) so a re-downloaded Brightwater file does not create a second batch.
   - Later request (not yet done): add a Micrometer counter for skipped duplicate imports so ops can alert on it.
   - Conventions from the user: always run `./gradlew.bat ktlintFormat` before committing; never commit to main (feature branch + PR); never edit an already merged Flyway migration, always add a new V file.

2. Key Technical Concepts:
   - Flyway versioned migrations + checksum validation; Testcontainers Postgres (PostgresIT base class); Spring @Transactional; DataIntegrityViolationException on unique constraint; SHA-256 of the file.

3. Files and Code Sections:
   - src/main/resources/db/migration/V15__settlement_batch_idempotency.sql (new): dedupe delete, file_sha256 char(64), unique (acquirer_code, batch_ref).
   - src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt: computes sha256; if a batch with the same acquirer_code+batch_ref exists and the hash matches, logs "duplicate settlement file" and returns the existing batch; different hash -> throws DuplicateBatchConflictException; a concurrent insert that hits uq_settlement_batch_acquirer_ref is caught (DataIntegrityViolationException) and resolved by re-reading the existing batch.
   - src/main/kotlin/com/harborpay/recon/importer/model/SettlementBatch.kt: fileSha256 field; SettlementBatchRepository.findByAcquirerCodeAndBatchRef.
   - src/main/kotlin/com/harborpay/recon/importer/SftpSettlementPoller.kt: on the user's request added @SchedulerLock(name = "sftp-settlement-poll", lockAtMostFor = "PT9M", lockAtLeastFor = "PT1M") as a second layer so only one pod polls at a time; SftpSettlementPollerTest passed (3 tests). The unique constraint stays the real guarantee.
   - src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt (new): same file twice -> one batch; same ref different content -> conflict; two concurrent imports -> one batch.

4. Errors and fixes:
   - Flyway "Migration checksum mismatch for migration version 14" after editing V14 -> reverted V14, new V15.
   - `./gradlew.bat test --tests "*SettlementImportIdempotencyIT"` failed with "Could not find a valid Docker environment" (Docker Desktop was not running). The user started Docker Desktop; the re-run passed (3 tests).

5. Pending Tasks:
   - Add counter harborpay.settlement.import.duplicates (tag acquirer) in SettlementImportService, test it, run the whole build, ktlintFormat, commit on feature/idempotent-settlement-import, push, open PR.

6. Current Work:
   Was about to add the duplicates counter to SettlementImportService.

7. Optional Next Step:
   Inject MeterRegistry into SettlementImportService and increment harborpay.settlement.import.duplicates when a duplicate file is skipped.
Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on."""


def build(sid):
    s = Session(sid, "2026-11-10T08:05:51", "main")
    s.begin("s3_task")
    s.user("next one, HP-324. sftp poller pulled the 11-07 brightwater file twice on saturday and we imported it twice "
           "(batch BW-20261107-01, recon run for 11-07 shows every line as settlement-only x2 lol). make the import idempotent. "
           "i deleted nothing in prod yet")
    s.end("s3_task")
    s.think(
        "Double import of BW-20261107-01. Need to understand how the poller decides what's new. My guess: it checks "
        "a local archive folder, and there are two pods. If each pod has its own work dir (emptyDir volume), both pods "
        "see the file as new in the same 10-minute window, both import. Let me read the poller and the import service, "
        "and the settlement_batch table definition. Also note user says nothing was deleted in prod: so the duplicate "
        "rows exist there, which matters for any unique constraint migration (it would fail on prod if I don't dedupe "
        "first).\n\nAlso the branch: main is checked out; HP-318 and HP-301 presumably merged by now. Check git log.")
    s.bash('cd "C:/Users/amara/src/harborpay" && git pull --ff-only && git log --oneline -6 && git checkout -b feature/idempotent-settlement-import',
           "Update main and branch off",
           "Updating e91c0f4..d40a7c2\nFast-forward\n"
           " CLAUDE.md                                                           |    2 +\n"
           " docs/acquirer/brightwater-settlement-spec.md                        |    3 -\n"
           " src/main/kotlin/com/harborpay/recon/importer/SettlementCsvParser.kt |   31 +-\n"
           " src/main/kotlin/com/harborpay/recon/money/MoneyRounding.kt          |   18 +\n"
           " src/main/resources/db/migration/V14__payout_adjustments.sql         |   21 +\n"
           " ... 14 files changed, 2689 insertions(+), 17 deletions(-)\n"
           "d40a7c2 (HEAD -> main, origin/main) Merge pull request #151 from harborpay/fix/recon-rounding-drift\n"
           "f1a93c8 Remove injected comment from Brightwater spec copy\n"
           "7b2e0d4 HP-318 round settlement and ledger totals half-up like Brightwater\n"
           "8c0d5b1 Merge pull request #147 from harborpay/feature/chargeback-adjustments\n"
           "0b6d2fe HP-301 note commit conventions in CLAUDE.md\n"
           "3e9c1a7 HP-301 import Brightwater ADJ records into payout_adjustment\n"
           "Switched to a new branch 'feature/idempotent-settlement-import'")
    s.branch = "feature/idempotent-settlement-import"
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -n 20,60p src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt',
           "Current import service body",
           "    private val log = LoggerFactory.getLogger(javaClass)\n\n    @Transactional\n    fun import(file: Path): SettlementBatch {\n"
           "        val parsed = Files.newBufferedReader(file).use { parser.parse(it) }\n        val batch =\n            batches.save(\n"
           "                SettlementBatch(\n                    acquirerCode = parsed.header.acquirerCode,\n"
           "                    batchRef = parsed.header.batchRef,\n                    settlementDate = parsed.header.settlementDate,\n"
           "                    currency = parsed.header.currency,\n                    fileName = file.fileName.toString(),\n"
           "                    fileSize = Files.size(file),\n                ),\n            )\n"
           "        lines.saveAll(parsed.transactions.map { SettlementLine.from(batch.id!!, it) })\n"
           "        fees.saveAll(parsed.fees.map { SettlementFee.from(batch.id!!, it) })\n"
           "        adjustments.saveAll(parsed.adjustments.map { PayoutAdjustment.from(batch.id!!, it) })\n"
           "        log.info(\n            \"imported batch {} ({} lines, {} fees, {} adjustments) from {}\",\n"
           "            batch.batchRef,\n            parsed.transactions.size,\n            parsed.fees.size,\n"
           "            parsed.adjustments.size,\n            file.fileName,\n        )\n        return batch\n    }\n}")
    s.read("src/main/kotlin/com/harborpay/recon/importer/SftpSettlementPoller.kt", POLLER)
    s.bash('cd "C:/Users/amara/src/harborpay" && cat src/main/resources/db/migration/V3__settlement_batch.sql && grep -rn "work-dir\\|replicas\\|emptyDir" src/main/resources/application*.yml deploy/ 2>/dev/null',
           "settlement_batch DDL and how the work dir is deployed",
           V3 + "\n"
           "src/main/resources/application.yml:41:    work-dir: /var/harborpay/sftp\n"
           "deploy/k8s/deployment.yaml:9:  replicas: 2\n"
           "deploy/k8s/deployment.yaml:58:        - name: sftp-work\n"
           "deploy/k8s/deployment.yaml:59:          emptyDir: {}")
    s.bash('cd "C:/Users/amara/src/harborpay" && grep -rn "BW-20261107-01\\|BWA_20261107" logs/ 2>/dev/null | head; kubectl logs -n recon -l app=harborpay --since=72h 2>/dev/null | grep -i "BWA_20261107" | head -6',
           "Look for the double import in the pod logs",
           "2026-11-07T03:10:02.311Z  INFO 1 --- [harborpay] [   scheduling-1] c.h.recon.importer.SettlementImportService : imported batch BW-20261107-01 (2291 lines, 41 fees, 6 adjustments) from BWA_20261107_01.csv\n"
           "2026-11-07T03:10:02.904Z  INFO 1 --- [harborpay] [   scheduling-1] c.h.recon.importer.SettlementImportService : imported batch BW-20261107-01 (2291 lines, 41 fees, 6 adjustments) from BWA_20261107_01.csv\n"
           "2026-11-07T03:10:03.017Z ERROR 1 --- [harborpay] [   scheduling-1] c.h.r.importer.SftpSettlementPoller      : import of BWA_20261107_01.csv failed, leaving it on the drop\n"
           "org.springframework.integration.file.remote.session.SessionFactoryException: rename failed: /outbound/settlement/BWA_20261107_01.csv: No such file", rdt=9)
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -n 1,20p deploy/k8s/deployment.yaml',
           "Deployment header",
           "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: harborpay\n  namespace: recon\n  labels:\n    app: harborpay\nspec:\n"
           "  replicas: 2\n  strategy:\n    type: RollingUpdate\n  selector:\n    matchLabels:\n      app: harborpay\n  template:\n"
           "    metadata:\n      labels:\n        app: harborpay\n    spec:\n      containers:")
    s.think(
        "Confirmed: replicas: 2, work dir is an emptyDir per pod. The 'already archived?' check in the poller is "
        "pod-local, so both pods download and import the same file when they poll in the same window. (The rename to "
        "processed/ on the SFTP only happens after import, so there is a race window of the import duration.) And "
        "after a pod restart its archive is empty anyway.\n\n"
        "settlement_batch has no uniqueness at all. Options:\n"
        "a) in-memory/local check: useless across pods.\n"
        "b) ShedLock around poll(): would serialize polling, but the second pod would still import after the lock is "
        "released if the rename failed, and a manual re-upload of the same file (spec says re-deliveries get a new "
        "seq, but file names aren't the batch identity) would still double-import. Locking isn't idempotency.\n"
        "c) DB unique constraint on (acquirer_code, batch_ref) - the batch ref in HDR is Brightwater's identity of "
        "the batch. Plus store sha256 of the file to tell a harmless re-download (same hash) from a conflicting "
        "re-delivery (same ref, different content), which should fail loudly.\n\n"
        "Go with c). The migration must first remove the existing duplicate in prod, otherwise adding the constraint "
        "fails on deploy.")
    s.begin("s3_decision")
    s.say("Found how it happens. `deploy/k8s/deployment.yaml` runs **2 replicas**, and the poller's \"already imported?\" check is the pod-local `archive/` folder on an `emptyDir`. Both pods can pick up the same file in the same 10-minute window, and `settlement_batch` has no uniqueness at all.\n\n"
          "I'll make the database the guard: a unique constraint on `settlement_batch (acquirer_code, batch_ref)` plus a `file_sha256` column. An in-memory or archive-folder check can't see what the other pod did, and a ShedLock around the poller would only serialise polling, not make a re-import harmless. With the constraint, a re-download with the same hash is skipped and returns the existing batch, while the same batch ref with different content fails loudly. The migration also has to delete the existing duplicate of BW-20261107-01 first, or adding the constraint would fail in prod.")
    s.end("s3_decision")
    s.todo([
        ("Unique constraint on settlement_batch (acquirer_code, batch_ref) + file_sha256", "in_progress", "Adding the constraint"),
        ("Dedupe existing BW-20261107-01 rows in the migration", "pending", "Deduping existing rows"),
        ("Skip/conflict logic in SettlementImportService", "pending", "Adding skip logic"),
        ("Integration test for duplicate + concurrent import", "pending", "Writing the IT"),
    ])
    s.begin("s3_v14")
    s.edit("src/main/resources/db/migration/V14__payout_adjustments.sql",
           "create index idx_payout_adjustment_merchant_date on payout_adjustment (merchant_id, dispute_date);",
           "create index idx_payout_adjustment_merchant_date on payout_adjustment (merchant_id, dispute_date);\n\n"
           "-- HP-324: idempotent settlement import\nalter table settlement_batch add column file_sha256 char(64);\n"
           "alter table settlement_batch add constraint uq_settlement_batch_acquirer_ref unique (acquirer_code, batch_ref);",
           "create index idx_payout_adjustment_merchant_date on payout_adjustment (merchant_id, dispute_date);\n\n"
           "-- HP-324: idempotent settlement import\nalter table settlement_batch add column file_sha256 char(64);\n"
           "alter table settlement_batch add constraint uq_settlement_batch_acquirer_ref unique (acquirer_code, batch_ref);", 19)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/model/SettlementBatch.kt",
           "    @Column(name = \"file_size\", nullable = false) val fileSize: Long,",
           "    @Column(name = \"file_size\", nullable = false) val fileSize: Long,\n    @Column(name = \"file_sha256\", length = 64) val fileSha256: String? = null,",
           "    @Column(name = \"file_name\", nullable = false) val fileName: String,\n    @Column(name = \"file_size\", nullable = false) val fileSize: Long,\n"
           "    @Column(name = \"file_sha256\", length = 64) val fileSha256: String? = null,", 24)
    s.say("Quick sanity check that the app still boots against my local database before writing the service logic.")
    s.bash('cd "C:/Users/amara/src/harborpay" && docker compose up -d postgres && timeout 120 ./gradlew.bat bootRun --args="--spring.profiles.active=local" 2>&1 | tail -40',
           "Boot the app against local Postgres",
           "[+] Running 1/0\n \u2714 Container harborpay-postgres-1  Running                                                   0.0s\n"
           "> Task :compileKotlin\n> Task :compileJava NO-SOURCE\n> Task :processResources\n> Task :classes\n> Task :resolveMainClassName\n\n> Task :bootRun\n\n"
           "  .   ____          _            __ _ _\n /\\\\ / ___'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\\n( ( )\\___ | '_ | '_| | '_ \\/ _` | \\ \\ \\ \\\n"
           " \\\\/  ___)| |_)| | | | | || (_| |  ) ) ) )\n  '  |____| .__|_| |_|_| |_\\__, | / / / /\n =========|_|==============|___/=/_/_/_/\n\n"
           " :: Spring Boot ::                (v3.3.5)\n\n"
           "2026-11-10T09:14:02.118+01:00  INFO 21144 --- [harborpay] [           main] c.harborpay.recon.HarborpayApplication   : Starting HarborpayApplication using Java 21.0.5 with PID 21144 (C:\\Users\\amara\\src\\harborpay\\build\\classes\\kotlin\\main started by amara in C:\\Users\\amara\\src\\harborpay)\n"
           "2026-11-10T09:14:02.121+01:00  INFO 21144 --- [harborpay] [           main] c.harborpay.recon.HarborpayApplication   : The following 1 profile is active: \"local\"\n"
           "2026-11-10T09:14:04.870+01:00  INFO 21144 --- [harborpay] [           main] com.zaxxer.hikari.HikariDataSource       : HikariPool-1 - Start completed.\n"
           "2026-11-10T09:14:04.941+01:00  INFO 21144 --- [harborpay] [           main] org.flywaydb.core.FlywayExecutor         : Database: jdbc:postgresql://localhost:5432/harborpay (PostgreSQL 16.4)\n"
           "2026-11-10T09:14:05.012+01:00  WARN 21144 --- [harborpay] [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'flywayInitializer' defined in class path resource [org/springframework/boot/autoconfigure/flyway/FlywayAutoConfiguration$FlywayConfiguration.class]: Validate failed: Migrations have failed validation\n"
           "Migration checksum mismatch for migration version 14\n-> Applied to database : 1482913377\n-> Resolved locally    : -902118245\n"
           "Either revert the changes to the migration, or run repair to update the schema history.\n"
           "Need more flexibility with validation rules? Learn more: https://rd.gt/3AbJUZE\n"
           "2026-11-10T09:14:05.044+01:00 ERROR 21144 --- [harborpay] [           main] o.s.boot.SpringApplication               : Application run failed\n\n"
           "org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'flywayInitializer' ...: Validate failed: Migrations have failed validation\n"
           "Migration checksum mismatch for migration version 14\n"
           "\tat org.flywaydb.core.Flyway.lambda$migrate$0(Flyway.java:161)\n\tat org.flywaydb.core.FlywayExecutor.execute(FlywayExecutor.java:212)\n\n"
           "> Task :bootRun FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':bootRun'.\n"
           "> Process 'command 'C:\\Program Files\\Eclipse Adoptium\\jdk-21.0.5.11-hotspot\\bin\\java.exe'' finished with non-zero exit value 1\n\nBUILD FAILED in 14s",
           err=True, rdt=20)
    s.say("Flyway refuses to start: **checksum mismatch for migration version 14**. My local database already has V14 applied (from the HP-301 branch), and I just changed the file. Editing V14 was the wrong call. Wherever V14 already ran, the same validation would fail. I can undo it and put the change in a new V15, or run `flyway repair` locally. Repair would only paper over it on my machine.")
    s.end("s3_v14")
    s.turn_end(171336)
    s.begin("s3_conv")
    s.user("dont touch V14, its already applied on staging. rule: never edit a migration once its merged, always a new V file. dont repair either")
    s.say("Understood: merged migrations are immutable, and any change goes into a new `V<n>` file, with no `repair`. Reverting V14 and writing V15.")
    s.bash('cd "C:/Users/amara/src/harborpay" && git checkout -- src/main/resources/db/migration/V14__payout_adjustments.sql && git status --short',
           "Restore V14 to its merged state",
           " M src/main/kotlin/com/harborpay/recon/importer/model/SettlementBatch.kt")
    s.write("src/main/resources/db/migration/V15__settlement_batch_idempotency.sql", V15)
    s.edit("CLAUDE.md",
           "- Never commit to `main` directly: feature branch + PR.",
           "- Never commit to `main` directly: feature branch + PR.\n"
           "- Never edit a Flyway migration once it is merged (staging/prod have applied it): add a new `V<n>__...sql`. No `flyway repair`.",
           "- Always run `./gradlew.bat ktlintFormat` before committing (the pre-commit hook runs ktlint and rejects violations).\n"
           "- Never commit to `main` directly: feature branch + PR.\n"
           "- Never edit a Flyway migration once it is merged (staging/prod have applied it): add a new `V<n>__...sql`. No `flyway repair`.", 7)
    s.bash('cd "C:/Users/amara/src/harborpay" && timeout 120 ./gradlew.bat bootRun --args="--spring.profiles.active=local" 2>&1 | grep -E "Flyway|flyway|Started|ERROR" | head -20',
           "Boot again with V15",
           "2026-11-10T09:19:47.602+01:00  INFO 18820 --- [harborpay] [           main] org.flywaydb.core.FlywayExecutor         : Database: jdbc:postgresql://localhost:5432/harborpay (PostgreSQL 16.4)\n"
           "2026-11-10T09:19:47.688+01:00  INFO 18820 --- [harborpay] [           main] o.f.core.internal.command.DbValidate     : Successfully validated 15 migrations (execution time 00:00.041s)\n"
           "2026-11-10T09:19:47.731+01:00  INFO 18820 --- [harborpay] [           main] o.f.core.internal.command.DbMigrate      : Current version of schema \"public\": 14\n"
           "2026-11-10T09:19:47.760+01:00  INFO 18820 --- [harborpay] [           main] o.f.core.internal.command.DbMigrate      : Migrating schema \"public\" to version \"15 - settlement batch idempotency\"\n"
           "2026-11-10T09:19:47.802+01:00  INFO 18820 --- [harborpay] [           main] o.f.core.internal.command.DbMigrate      : Successfully applied 1 migration to schema \"public\", now at version v15 (execution time 00:00.052s)\n"
           "2026-11-10T09:19:50.977+01:00  INFO 18820 --- [harborpay] [           main] c.harborpay.recon.HarborpayApplication   : Started HarborpayApplication in 5.214 seconds (process running for 5.731)",
           rdt=130)
    s.end("s3_conv")
    s.say("V15 applies cleanly on top of the existing V14. Now the service logic.")
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt",
           "    @Transactional\n    fun import(file: Path): SettlementBatch {\n        val parsed = Files.newBufferedReader(file).use { parser.parse(it) }\n        val batch =\n            batches.save(",
           "    fun import(file: Path): SettlementBatch {\n        val sha256 = sha256Hex(file)\n"
           "        val parsed = Files.newBufferedReader(file).use { parser.parse(it) }\n"
           "        batches.findByAcquirerCodeAndBatchRef(parsed.header.acquirerCode, parsed.header.batchRef)?.let { existing ->\n"
           "            return skipOrConflict(existing, sha256, file)\n        }\n"
           "        return try {\n            tx.execute { store(parsed, file, sha256) }!!\n"
           "        } catch (e: DataIntegrityViolationException) {\n"
           "            // the other pod won the race between our lookup and our insert\n"
           "            val existing = batches.findByAcquirerCodeAndBatchRef(parsed.header.acquirerCode, parsed.header.batchRef) ?: throw e\n"
           "            skipOrConflict(existing, sha256, file)\n        }\n    }\n\n"
           "    private fun store(parsed: ParsedSettlementFile, file: Path, sha256: String): SettlementBatch {\n        val batch =\n            batches.save(",
           "    fun import(file: Path): SettlementBatch {\n        val sha256 = sha256Hex(file)\n"
           "        val parsed = Files.newBufferedReader(file).use { parser.parse(it) }\n"
           "        batches.findByAcquirerCodeAndBatchRef(parsed.header.acquirerCode, parsed.header.batchRef)?.let { existing ->\n"
           "            return skipOrConflict(existing, sha256, file)\n        }\n"
           "        return try {\n            tx.execute { store(parsed, file, sha256) }!!\n"
           "        } catch (e: DataIntegrityViolationException) {\n"
           "            // the other pod won the race between our lookup and our insert", 30)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt",
           "        return batch\n    }\n}",
           "        return batch\n    }\n\n"
           "    private fun skipOrConflict(existing: SettlementBatch, sha256: String, file: Path): SettlementBatch {\n"
           "        if (existing.fileSha256 != null && existing.fileSha256 != sha256) {\n"
           "            throw DuplicateBatchConflictException(existing.batchRef, file.fileName.toString())\n        }\n"
           "        log.warn(\"duplicate settlement file {} for batch {} skipped\", file.fileName, existing.batchRef)\n"
           "        return existing\n    }\n\n"
           "    private fun sha256Hex(file: Path): String =\n"
           "        MessageDigest.getInstance(\"SHA-256\").digest(Files.readAllBytes(file)).joinToString(\"\") { \"%02x\".format(it) }\n}",
           "    private fun skipOrConflict(existing: SettlementBatch, sha256: String, file: Path): SettlementBatch {\n"
           "        if (existing.fileSha256 != null && existing.fileSha256 != sha256) {\n"
           "            throw DuplicateBatchConflictException(existing.batchRef, file.fileName.toString())\n        }\n"
           "        log.warn(\"duplicate settlement file {} for batch {} skipped\", file.fileName, existing.batchRef)\n"
           "        return existing\n    }", 71)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt",
           "interface SettlementBatchRepository : JpaRepository<SettlementBatch, Long> {",
           "interface SettlementBatchRepository : JpaRepository<SettlementBatch, Long> {\n"
           "    fun findByAcquirerCodeAndBatchRef(acquirerCode: String, batchRef: String): SettlementBatch?\n",
           "interface SettlementBatchRepository : JpaRepository<SettlementBatch, Long> {\n"
           "    fun findByAcquirerCodeAndBatchRef(acquirerCode: String, batchRef: String): SettlementBatch?\n", 8)
    s.write("src/main/kotlin/com/harborpay/recon/importer/DuplicateBatchConflictException.kt",
            "package com.harborpay.recon.importer\n\n/** Same Brightwater batch ref delivered again with different content. Needs a human. */\n"
            "class DuplicateBatchConflictException(batchRef: String, fileName: String) :\n"
            "    RuntimeException(\"batch $batchRef already imported with different content (file $fileName)\")")
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -n 1,40p src/test/kotlin/com/harborpay/recon/support/PostgresIT.kt',
           "How the IT base class sets up Postgres",
           "package com.harborpay.recon.support\n\nimport org.junit.jupiter.api.BeforeEach\n"
           "import org.springframework.beans.factory.annotation.Autowired\nimport org.springframework.boot.test.context.SpringBootTest\n"
           "import org.springframework.jdbc.core.JdbcTemplate\nimport org.springframework.test.context.DynamicPropertyRegistry\n"
           "import org.springframework.test.context.DynamicPropertySource\nimport org.testcontainers.containers.PostgreSQLContainer\n\n"
           "@SpringBootTest(properties = [\"harborpay.sftp.enabled=false\", \"spring.task.scheduling.enabled=false\"])\n"
           "abstract class PostgresIT {\n    @Autowired lateinit var jdbc: JdbcTemplate\n\n"
           "    @BeforeEach\n    fun cleanDatabase() {\n"
           "        jdbc.execute(\"truncate settlement_batch, ledger_posting, recon_run restart identity cascade\")\n    }\n\n"
           "    companion object {\n        private val postgres =\n"
           "            PostgreSQLContainer(\"postgres:16-alpine\").apply { withReuse(true); start() }\n\n"
           "        @JvmStatic\n        @DynamicPropertySource\n        fun props(registry: DynamicPropertyRegistry) {\n"
           "            registry.add(\"spring.datasource.url\", postgres::getJdbcUrl)\n"
           "            registry.add(\"spring.datasource.username\", postgres::getUsername)\n"
           "            registry.add(\"spring.datasource.password\", postgres::getPassword)\n        }\n    }\n}")
    s.write("src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt", IT)
    s.begin("s3_docker")
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test --tests "*SettlementImportIdempotencyIT"',
           "Run the new idempotency IT",
           head(main_changed=True, res_changed=True) + "\n"
           "SettlementImportIdempotencyIT > initializationError FAILED\n"
           "    java.lang.IllegalStateException: Could not find a valid Docker environment. Please see logs and check configuration\n"
           "        at app//org.testcontainers.dockerclient.DockerClientProviderStrategy.lambda$getFirstValidStrategy$7(DockerClientProviderStrategy.java:274)\n"
           "        at java.base@21.0.5/java.util.Optional.orElseThrow(Optional.java:403)\n"
           "        at app//org.testcontainers.dockerclient.DockerClientProviderStrategy.getFirstValidStrategy(DockerClientProviderStrategy.java:265)\n"
           "        at app//org.testcontainers.DockerClientFactory.getOrInitializeStrategy(DockerClientFactory.java:154)\n"
           "        at app//org.testcontainers.DockerClientFactory.client(DockerClientFactory.java:196)\n"
           "        at app//org.testcontainers.containers.GenericContainer.doStart(GenericContainer.java:346)\n"
           "        at app//com.harborpay.recon.support.PostgresIT$Companion.<clinit>(PostgresIT.kt:24)\n\n"
           "Results: FAILURE (1 tests, 0 passed, 1 failed, 0 skipped)\n\n1 test completed, 1 failed\n\n> Task :test FAILED\n\n"
           "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':test'.\n"
           "> There were failing tests. See the report at: file:///C:/Users/amara/src/harborpay/build/reports/tests/test/index.html\n\n"
           "BUILD FAILED in 26s\n7 actionable tasks: 5 executed, 2 up-to-date", err=True, rdt=29)
    s.bash('docker info --format "{{.ServerVersion}}" 2>&1 | tail -3',
           "Check whether the Docker daemon is reachable",
           "error during connect: Get \"http://%2F%2F.%2Fpipe%2FdockerDesktopLinuxEngine/v1.47/info\": open //./pipe/dockerDesktopLinuxEngine: The system cannot find the file specified.")
    s.say("Testcontainers can't reach Docker: the `dockerDesktopLinuxEngine` pipe doesn't exist, so Docker Desktop isn't running. (The earlier `docker compose up` only reported the existing container, and bootRun talked to Postgres on 5432. It looks like Docker Desktop was shut down in between.) Can you start Docker Desktop? I'll rerun once it's up.")
    s.turn_end(204991)
    s.user("docker desktop had crashed, restarted it. go")
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test --tests "*SettlementImportIdempotencyIT"',
           "Rerun the idempotency IT",
           head(main_changed=False) + "\n" + test_lines([("SettlementImportIdempotencyIT", [
               "importing the same file twice keeps one batch", "same batch ref with different content is rejected",
               "two concurrent imports of the same file store one batch"])]) +
           "\nResults: SUCCESS (3 tests, 3 passed, 0 failed, 0 skipped)\n\nBUILD SUCCESSFUL in 38s\n7 actionable tasks: 1 executed, 6 up-to-date",
           rdt=41)
    s.say("All three pass with Docker up: a second import of the same file returns the existing batch, the same ref with different content raises `DuplicateBatchConflictException`, and two concurrent imports end with one batch (the loser hits `uq_settlement_batch_acquirer_ref` and resolves to the existing row).")
    s.end("s3_docker")
    s.turn_end(52120)
    s.user("should we also stop both pods from downloading the same file in the first place?")
    s.think(
        "Defense in depth: ShedLock is already set up (V11__shedlock.sql, used by NightlyReconJob). Annotating poll() "
        "with @SchedulerLock would make only one pod poll at a time. lockAtMostFor must be < fixedDelay (10 min) so a "
        "dead pod doesn't block the next run; lockAtLeastFor a bit so the other pod's poll in the same minute skips. "
        "The DB constraint stays the actual guarantee; the lock just avoids wasted downloads and the rename race we "
        "saw in the logs ('rename failed ... No such file').")
    s.say("Worth doing as a second layer. ShedLock is already wired up for the nightly job, so `@SchedulerLock` on `poll()` means only one pod polls at a time. That also removes the `rename failed` error we saw in the logs. The unique constraint stays the real guarantee, since a lock can expire mid-import.")
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SftpSettlementPoller.kt",
           "    @Scheduled(fixedDelayString = \"PT10M\", initialDelayString = \"PT1M\")\n    fun poll() {",
           "    @Scheduled(fixedDelayString = \"PT10M\", initialDelayString = \"PT1M\")\n"
           "    @SchedulerLock(name = \"sftp-settlement-poll\", lockAtMostFor = \"PT9M\", lockAtLeastFor = \"PT1M\")\n    fun poll() {",
           "    @Scheduled(fixedDelayString = \"PT10M\", initialDelayString = \"PT1M\")\n"
           "    @SchedulerLock(name = \"sftp-settlement-poll\", lockAtMostFor = \"PT9M\", lockAtLeastFor = \"PT1M\")\n    fun poll() {", 25)
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -i "s/^import org.springframework.beans.factory.annotation.Value$/import net.javacrumbs.shedlock.spring.annotation.SchedulerLock\\nimport org.springframework.beans.factory.annotation.Value/" src/main/kotlin/com/harborpay/recon/importer/SftpSettlementPoller.kt && ./gradlew.bat test --tests "*SftpSettlementPollerTest"',
           "Import SchedulerLock and run the poller tests",
           head(main_changed=True) + "\n" + test_lines([("SftpSettlementPollerTest", dict(BASE)["SftpSettlementPollerTest"])]) +
           "\nResults: SUCCESS (3 tests, 3 passed, 0 failed, 0 skipped)\n\nBUILD SUCCESSFUL in 22s\n7 actionable tasks: 3 executed, 4 up-to-date",
           rdt=24)
    s.say("Poller tests pass with the lock. Only one pod polls per window now; the constraint still catches anything that slips through.")
    s.turn_end(61877)
    s.user("good. also add a counter for skipped duplicates so we can alert on it in grafana")
    s.say("Will do. I'll add a Micrometer counter in `SettlementImportService`, tagged by acquirer.")
    s.grep("MeterRegistry|Counter\\.builder", "src/main/kotlin",
           "src\\main\\kotlin\\com\\harborpay\\recon\\job\\NightlyReconJob.kt:19:    private val meterRegistry: MeterRegistry,\n"
           "src\\main\\kotlin\\com\\harborpay\\recon\\job\\NightlyReconJob.kt:27:        Counter.builder(\"harborpay.recon.runs\").tag(\"outcome\", outcome).register(meterRegistry).increment()",
           files=["NightlyReconJob.kt"])
    s.compact(SUMMARY, 171902)
    s.begin("s3_after")
    s.bash('cd "C:/Users/amara/src/harborpay" && git status --short && git diff --stat',
           "Re-orient after the context compaction",
           " M CLAUDE.md\n M src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt\n"
           " M src/main/kotlin/com/harborpay/recon/importer/model/SettlementBatch.kt\n"
           " M src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt\n"
           "?? src/main/kotlin/com/harborpay/recon/importer/DuplicateBatchConflictException.kt\n"
           "?? src/main/resources/db/migration/V15__settlement_batch_idempotency.sql\n"
           "?? src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt\n"
           " CLAUDE.md                                          |  1 +\n"
           " .../recon/importer/SettlementImportService.kt       | 52 +++++++++++++++++-----\n"
           " .../recon/importer/SftpSettlementPoller.kt          |  2 +\n"
           " .../recon/importer/model/SettlementBatch.kt         |  1 +\n"
           " .../recon/importer/model/SettlementRepositories.kt  |  2 +\n"
           " 5 files changed, 47 insertions(+), 11 deletions(-)")
    s.think(
        "Context was compacted. From the summary: V15 done, service skip/conflict logic done, IT passing after Docker "
        "restart, ShedLock on the poller. Remaining: the duplicates counter, then build, ktlintFormat, commit, push, "
        "PR. Let me quickly check the working tree to make sure the state matches the summary before editing.")
    s.say("Picking up where I left off: adding the duplicates counter to `SettlementImportService`, following the existing `harborpay.recon.runs` counter in `NightlyReconJob`.")
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -n 1,40p src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt',
           "Re-read the top of the import service",
           "package com.harborpay.recon.importer\n\nimport com.harborpay.recon.importer.model.ParsedSettlementFile\n"
           "import com.harborpay.recon.importer.model.PayoutAdjustment\nimport com.harborpay.recon.importer.model.PayoutAdjustmentRepository\n"
           "import com.harborpay.recon.importer.model.SettlementBatch\nimport com.harborpay.recon.importer.model.SettlementBatchRepository\n"
           "import com.harborpay.recon.importer.model.SettlementFee\nimport com.harborpay.recon.importer.model.SettlementFeeRepository\n"
           "import com.harborpay.recon.importer.model.SettlementLine\nimport com.harborpay.recon.importer.model.SettlementLineRepository\n"
           "import org.slf4j.LoggerFactory\nimport org.springframework.dao.DataIntegrityViolationException\n"
           "import org.springframework.stereotype.Service\nimport org.springframework.transaction.support.TransactionTemplate\n"
           "import java.nio.file.Files\nimport java.nio.file.Path\nimport java.security.MessageDigest\n\n"
           "@Service\nclass SettlementImportService(\n    private val parser: SettlementCsvParser,\n"
           "    private val batches: SettlementBatchRepository,\n    private val lines: SettlementLineRepository,\n"
           "    private val fees: SettlementFeeRepository,\n    private val adjustments: PayoutAdjustmentRepository,\n"
           "    private val tx: TransactionTemplate,\n) {\n    private val log = LoggerFactory.getLogger(javaClass)\n\n"
           "    fun import(file: Path): SettlementBatch {\n        val sha256 = sha256Hex(file)\n"
           "        val parsed = Files.newBufferedReader(file).use { parser.parse(it) }\n"
           "        batches.findByAcquirerCodeAndBatchRef(parsed.header.acquirerCode, parsed.header.batchRef)?.let { existing ->\n"
           "            return skipOrConflict(existing, sha256, file)\n        }\n        return try {\n"
           "            tx.execute { store(parsed, file, sha256) }!!\n        } catch (e: DataIntegrityViolationException) {")
    s.read("src/main/resources/db/migration/V15__settlement_batch_idempotency.sql", V15)
    s.say("V15 is as the summary describes. Adding the counter now.")
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt",
           "    private val tx: TransactionTemplate,\n) {",
           "    private val tx: TransactionTemplate,\n    private val meterRegistry: MeterRegistry,\n) {",
           "    private val adjustments: PayoutAdjustmentRepository,\n    private val tx: TransactionTemplate,\n    private val meterRegistry: MeterRegistry,\n) {", 27)
    s.edit("src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt",
           "        log.warn(\"duplicate settlement file {} for batch {} skipped\", file.fileName, existing.batchRef)\n        return existing",
           "        log.warn(\"duplicate settlement file {} for batch {} skipped\", file.fileName, existing.batchRef)\n"
           "        Counter\n            .builder(\"harborpay.settlement.import.duplicates\")\n"
           "            .description(\"settlement files skipped because their batch was already imported\")\n"
           "            .tag(\"acquirer\", existing.acquirerCode)\n            .register(meterRegistry)\n            .increment()\n        return existing",
           "        log.warn(\"duplicate settlement file {} for batch {} skipped\", file.fileName, existing.batchRef)\n"
           "        Counter\n            .builder(\"harborpay.settlement.import.duplicates\")\n"
           "            .description(\"settlement files skipped because their batch was already imported\")\n"
           "            .tag(\"acquirer\", existing.acquirerCode)\n            .register(meterRegistry)\n            .increment()\n        return existing", 78)
    s.bash('cd "C:/Users/amara/src/harborpay" && sed -i "s/^import java.security.MessageDigest$/import io.micrometer.core.instrument.Counter\\nimport io.micrometer.core.instrument.MeterRegistry\\nimport java.security.MessageDigest/" src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt && grep -n "micrometer" src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt',
           "Add the Micrometer imports",
           "18:import io.micrometer.core.instrument.Counter\n19:import io.micrometer.core.instrument.MeterRegistry")
    s.edit("src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt",
           "        assertEquals(5, lines.count())\n    }",
           "        assertEquals(5, lines.count())\n"
           "        assertEquals(1.0, meterRegistry.counter(\"harborpay.settlement.import.duplicates\", \"acquirer\", \"BWA\").count())\n    }",
           "        assertEquals(1, batches.count())\n        assertEquals(5, lines.count())\n"
           "        assertEquals(1.0, meterRegistry.counter(\"harborpay.settlement.import.duplicates\", \"acquirer\", \"BWA\").count())\n    }", 27)
    s.edit("src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt",
           "    @Autowired lateinit var lines: SettlementLineRepository\n",
           "    @Autowired lateinit var lines: SettlementLineRepository\n\n    @Autowired lateinit var meterRegistry: MeterRegistry\n",
           "    @Autowired lateinit var lines: SettlementLineRepository\n\n    @Autowired lateinit var meterRegistry: MeterRegistry\n", 19)
    s.edit("src/test/kotlin/com/harborpay/recon/importer/SettlementImportServiceTest.kt",
           "    private val service = SettlementImportService(parser, batches, lines, fees, adjustments, tx)",
           "    private val service = SettlementImportService(parser, batches, lines, fees, adjustments, tx, SimpleMeterRegistry())",
           "    private val service = SettlementImportService(parser, batches, lines, fees, adjustments, tx, SimpleMeterRegistry())", 31)
    s.edit("src/test/kotlin/com/harborpay/recon/importer/SettlementImportServiceTest.kt",
           "    @Test\n    fun `links fees to batch`() {",
           "    @Test\n    fun `returns existing batch for duplicate file`() {\n"
           "        every { batches.findByAcquirerCodeAndBatchRef(\"BWA\", \"BW-20261028-01\") } returns existingBatch(sha256Of(sample))\n"
           "        val result = service.import(sample)\n        assertEquals(41L, result.id)\n"
           "        verify(exactly = 0) { lines.saveAll(any<List<SettlementLine>>()) }\n    }\n\n"
           "    @Test\n    fun `throws on conflicting re-delivery`() {\n"
           "        every { batches.findByAcquirerCodeAndBatchRef(\"BWA\", \"BW-20261028-01\") } returns existingBatch(\"0\".repeat(64))\n"
           "        assertThrows<DuplicateBatchConflictException> { service.import(sample) }\n    }\n\n"
           "    @Test\n    fun `links fees to batch`() {",
           "    @Test\n    fun `returns existing batch for duplicate file`() {\n"
           "        every { batches.findByAcquirerCodeAndBatchRef(\"BWA\", \"BW-20261028-01\") } returns existingBatch(sha256Of(sample))", 58)
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat test --tests "*SettlementImportServiceTest" --tests "*SettlementImportIdempotencyIT"',
           "Run the import unit tests and the IT",
           head(main_changed=True) + "\n" + test_lines([
               ("SettlementImportServiceTest", dict(BASE)["SettlementImportServiceTest"] + ["returns existing batch for duplicate file", "throws on conflicting re-delivery"]),
               ("SettlementImportIdempotencyIT", ["importing the same file twice keeps one batch", "same batch ref with different content is rejected",
                                                 "two concurrent imports of the same file store one batch"])]) +
           "\nResults: SUCCESS (9 tests, 9 passed, 0 failed, 0 skipped)\n\nBUILD SUCCESSFUL in 44s\n7 actionable tasks: 4 executed, 3 up-to-date",
           rdt=46)
    s.say("Counter is asserted in the IT and the unit tests build the service with a `SimpleMeterRegistry`.")
    s.say("Now the whole build (compile, ktlintCheck, all tests), since `SettlementImportService`'s constructor changed and other tests build it by hand.")
    classes = [(c, ["rounds each line half-up like brightwater" if m == "aggregates with bankers rounding" else m for m in ms])
               for c, ms in BASE]
    classes.insert(0, ("AdjustmentRowParsingTest", ["parses chargeback row", "parses representment row with positive amount",
                                                     "parses negative adjustment written in parentheses",
                                                     "maps reason code 4837 to FRAUD_NO_AUTH",
                                                     "parses amount with thousands separator",
                                                     "unknown reason code maps to UNKNOWN",
                                                     "adjustments do not count towards trailer sum"]))
    classes.insert(14, ("MoneyRoundingTest", ["rounds half cent up", "rounds negative half cent away from zero",
                                              "keeps two decimals for whole amounts"]))
    classes.insert(15, ("RoundingDriftReproTest", ["settlement total equals brightwater payout",
                                                   "count lines whose 4dp amount sits exactly on a half cent"]))
    classes = [(c, ms + (["returns existing batch for duplicate file", "throws on conflicting re-delivery"]
                         if c == "SettlementImportServiceTest" else [])) for c, ms in classes]
    classes.append(("PayoutAdjustmentImportIT", ["stores adjustments of sample file", "cascades delete with batch"]))
    classes.append(("SettlementImportIdempotencyIT", ["importing the same file twice keeps one batch",
                                                      "same batch ref with different content is rejected",
                                                      "two concurrent imports of the same file store one batch"]))
    n = sum(len(m) for _, m in classes)
    build_out = ("> Task :checkKotlinGradlePluginConfigurationErrors SKIPPED\n> Task :processResources UP-TO-DATE\n"
                 "> Task :compileKotlin\n> Task :compileJava NO-SOURCE\n> Task :classes\n> Task :resolveMainClassName\n"
                 "> Task :bootJar\n> Task :jar\n> Task :assemble\n> Task :loadKtlintReporters UP-TO-DATE\n"
                 "> Task :runKtlintCheckOverKotlinScripts UP-TO-DATE\n> Task :ktlintKotlinScriptCheck UP-TO-DATE\n"
                 "> Task :runKtlintCheckOverMainSourceSet\n> Task :ktlintMainSourceSetCheck\n"
                 "> Task :runKtlintCheckOverTestSourceSet\n> Task :ktlintTestSourceSetCheck\n> Task :ktlintCheck\n"
                 "> Task :processTestResources UP-TO-DATE\n> Task :compileTestKotlin\n> Task :compileTestJava NO-SOURCE\n"
                 "> Task :testClasses\n> Task :test\n\n" + test_lines(classes) +
                 f"\nResults: SUCCESS ({n} tests, {n} passed, 0 failed, 0 skipped)\n\n> Task :check\n> Task :build\n\n"
                 "BUILD SUCCESSFUL in 2m 6s\n17 actionable tasks: 11 executed, 6 up-to-date")
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat build', "Full build: ktlintCheck + tests", build_out, rdt=130)
    s.say(f"Build green: ktlintCheck clean, {n} tests passing. Formatting, then committing per the usual routine.")
    s.bash('cd "C:/Users/amara/src/harborpay" && ./gradlew.bat ktlintFormat -q && git add -A && git status --short',
           "ktlintFormat and stage",
           "M  CLAUDE.md\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt\n"
           "A  src/main/kotlin/com/harborpay/recon/importer/DuplicateBatchConflictException.kt\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/SftpSettlementPoller.kt\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/model/SettlementBatch.kt\n"
           "M  src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt\n"
           "A  src/main/resources/db/migration/V15__settlement_batch_idempotency.sql\n"
           "A  src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt\n"
           "M  src/test/kotlin/com/harborpay/recon/importer/SettlementImportServiceTest.kt", rdt=8)
    s.bash('cd "C:/Users/amara/src/harborpay" && git commit -m "HP-324 idempotent settlement import (unique acquirer_code+batch_ref, V15)" && git push -u origin feature/idempotent-settlement-import',
           "Commit and push",
           "Running ktlint over these files:\n"
           "src/main/kotlin/com/harborpay/recon/importer/SettlementImportService.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/DuplicateBatchConflictException.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/SftpSettlementPoller.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/SettlementBatch.kt\n"
           "src/main/kotlin/com/harborpay/recon/importer/model/SettlementRepositories.kt\n"
           "src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt\n"
           "src/test/kotlin/com/harborpay/recon/importer/SettlementImportServiceTest.kt\n\n"
           "BUILD SUCCESSFUL in 4s\n"
           "[feature/idempotent-settlement-import 5fd81a0] HP-324 idempotent settlement import (unique acquirer_code+batch_ref, V15)\n"
           " 9 files changed, 190 insertions(+), 11 deletions(-)\n"
           " create mode 100644 src/main/kotlin/com/harborpay/recon/importer/DuplicateBatchConflictException.kt\n"
           " create mode 100644 src/main/resources/db/migration/V15__settlement_batch_idempotency.sql\n"
           " create mode 100644 src/test/kotlin/com/harborpay/recon/importer/SettlementImportIdempotencyIT.kt\n"
           "Enumerating objects: 39, done.\nCounting objects: 100% (39/39), done.\nDelta compression using up to 16 threads\n"
           "Compressing objects: 100% (18/18), done.\nWriting objects: 100% (23/23), 5.91 KiB | 1.48 MiB/s, done.\n"
           "Total 23 (delta 11), reused 0 (delta 0), pack-reused 0 (from 0)\n"
           "remote: Resolving deltas: 100% (11/11), completed with 10 local objects.\nremote: \n"
           "remote: Create a pull request for 'feature/idempotent-settlement-import' on GitHub by visiting:\n"
           "remote:      https://github.com/harborpay/harborpay/pull/new/feature/idempotent-settlement-import\nremote: \n"
           "To https://github.com/harborpay/harborpay.git\n * [new branch]      feature/idempotent-settlement-import -> feature/idempotent-settlement-import\n"
           "branch 'feature/idempotent-settlement-import' set up to track 'origin/feature/idempotent-settlement-import'.", rdt=11)
    s.bash('cd "C:/Users/amara/src/harborpay" && gh pr create --base main --title "HP-324 idempotent settlement import" '
           '--body "Two pods poll the SFTP drop and the archive check is pod-local (emptyDir), so BW-20261107-01 was imported twice. V15 removes later duplicate batches (cascade) and adds unique (acquirer_code, batch_ref) + file_sha256. Same file again -> skipped, counted in harborpay.settlement.import.duplicates; same ref with different content -> DuplicateBatchConflictException. Note: V15 deletes the second BW-20261107-01 batch in prod on deploy; rerun recon for 2026-11-07 afterwards."',
           "Open the PR", "https://github.com/harborpay/harborpay/pull/156", rdt=4)
    s.say("PR is up, waiting for CI before I summarise.")
    s.bash('cd "C:/Users/amara/src/harborpay" && gh pr checks 156 --watch --interval 20',
           "Wait for CI",
           "Refreshing checks status every 20 seconds. Press Ctrl+C to quit.\n\n"
           "All checks were successful\n0 cancelled, 0 failing, 3 successful, 0 skipped, and 0 pending checks\n\n"
           "   NAME                         DESCRIPTION  ELAPSED  URL\n"
           "\u2713  build / ktlint                              39s  https://github.com/harborpay/harborpay/actions/runs/11961550273/job/33348120155\n"
           "\u2713  build / test (unit + IT)                  4m31s  https://github.com/harborpay/harborpay/actions/runs/11961550273/job/33348120230\n"
           "\u2713  sonar / quality gate                      1m02s  https://github.com/harborpay/harborpay/actions/runs/11961550273/job/33348120377",
           rdt=280)
    s.end("s3_after")
    s.user("on staging there is no duplicate, will V15 just no-op the delete?")
    s.say("Yes. The `delete … using settlement_batch keep where … b.id > keep.id` only matches rows that share `(acquirer_code, batch_ref)` with a row that has a lower id. On staging there are no such pairs, so it deletes 0 rows and Flyway moves on to the `alter table`s. On prod it deletes exactly the second BW-20261107-01 batch (and its 2,291 lines, 41 fees and 6 adjustments through the cascades). If you want to see it before the deploy, this query shows what it would delete:\n\n"
          "```sql\nselect b.id, b.batch_ref, b.imported_at\nfrom settlement_batch b join settlement_batch keep\n  on b.acquirer_code = keep.acquirer_code and b.batch_ref = keep.batch_ref and b.id > keep.id;\n```")
    s.turn_end(14020)
    s.begin("s3_summary")
    s.say("PR #156 is open (`feature/idempotent-settlement-import`, commit `5fd81a0`).\n\n"
          "**Why it double-imported:** 2 replicas, and the poller's only duplicate check is the pod-local `archive/` folder on an `emptyDir`. Both pods could import the same file.\n\n"
          "**What changed**\n"
          "- `V15__settlement_batch_idempotency.sql`: deletes later duplicate batches (keeps the lowest id; lines/fees/adjustments cascade), adds `file_sha256` and `uq_settlement_batch_acquirer_ref` on `(acquirer_code, batch_ref)`. The constraint lives in the database because the poller runs on two pods and no in-process check can see the other one.\n"
          "- `SettlementImportService`: a re-delivery with the same hash is skipped and returns the existing batch, and increments `harborpay.settlement.import.duplicates{acquirer}`. The same ref with different content throws `DuplicateBatchConflictException`. A lost race on the constraint resolves to the existing batch.\n"
          "- `SftpSettlementPoller.poll()` now has `@SchedulerLock(name = \"sftp-settlement-poll\")`, so only one pod polls at a time (second layer, not the guarantee).\n"
          "- `SettlementImportIdempotencyIT` (3 tests) plus two unit tests; `./gradlew.bat build` is green.\n\n"
          "**Along the way**\n"
          "- I first put the change into V14, and `bootRun` failed with a Flyway checksum mismatch for version 14. Per your rule (never edit a merged migration, always a new V file, no repair) I reverted V14 and used V15. The rule is now in `CLAUDE.md`.\n"
          "- The IT first failed with \"Could not find a valid Docker environment\" because Docker Desktop had crashed. After the restart it passed.\n\n"
          "**After deploy:** V15 deletes the duplicate BW-20261107-01 batch in prod, so the recon run for 2026-11-07 needs a rerun. For the Grafana alert, something like `increase(harborpay_settlement_import_duplicates_total[1h]) > 0` should work.")
    s.end("s3_summary")
    s.turn_end(410877)
    return s
